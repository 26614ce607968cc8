/* check.h -- a tiny assertion helper for the native tests: each CHECK prints
 * file, line and the failed expression; main returns check_failures(). */
#ifndef GOTA_CHECK_H
#define GOTA_CHECK_H
#include <stdio.h>

static int check_failed_count;
static int check_run_count;

#define CHECK(cond) do { check_run_count++; if (!(cond)) { check_failed_count++; \
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); } } while (0)
#define CHECK_EQ(a, b) do { long long va_ = (long long)(a), vb_ = (long long)(b); check_run_count++; \
    if (va_ != vb_) { check_failed_count++; fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", \
    __FILE__, __LINE__, #a, va_, #b, vb_); } } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d passed, %d failed\n", name, check_run_count - check_failed_count, check_failed_count);
    return check_failed_count ? 1 : 0;
}
#endif
