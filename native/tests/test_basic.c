/* test_basic.c -- GotA BASIC: the language (numbers, statements, persistence),
 * the compiler's diagnostics, the limits, hostile inputs, every host function
 * against the simulator's state, script seats in matches and batches. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "sim/world.h"
#include "batch/batch.h"
#include "sim/rng.h"

/* ---- helpers ---------------------------------------------------------------- */
static GotaBasicProgram *compile_ok(const char *src)
{
    GotaBasicProgram *p = NULL;
    char err[512];
    int rc = gota_basic_compile(src, -1, "t.bas", &p, err, sizeof err);
    if (rc != GOTA_OK) fprintf(stderr, "unexpected compile error: %s\n--- source:\n%s\n", err, src);
    CHECK_EQ(rc, GOTA_OK);
    return p;
}

/* Compile and expect an error whose message contains `want`. */
static void compile_fails(const char *src, const char *want)
{
    GotaBasicProgram *p = NULL;
    char err[512];
    int rc = gota_basic_compile(src, -1, "t.bas", &p, err, sizeof err);
    CHECK_EQ(rc, GOTA_ERR_RANGE);
    CHECK(p == NULL);
    if (!strstr(err, want)) fprintf(stderr, "compile error '%s' lacks '%s'\n", err, want);
    CHECK(strstr(err, want) != NULL);
    CHECK(strncmp(err, "t.bas:", 6) == 0);
}

/* A VM of src after one decision without a host; *rc = the run's code. */
static BasicVM *run(const char *src, int *rc)
{
    GotaBasicProgram *p = compile_ok(src);
    if (!p) return NULL;
    BasicVM *vm = basic_vm_new(p);
    gota_basic_free(p);
    *rc = basic_vm_run(vm, NULL, NULL);
    return vm;
}

static BasicValue gv(const BasicVM *vm, const char *name)
{
    const BasicValue *v = basic_vm_global(vm, name);
    if (!v) fprintf(stderr, "no global %s\n", name);
    return v ? *v : (BasicValue){0x7badbad, 9};
}

#define CHECK_INT(vm, name, want) do { BasicValue v_ = gv(vm, name); CHECK_EQ(v_.fx, 0); CHECK_EQ(v_.v, want); } while (0)
#define CHECK_FX(vm, name, q16) do { BasicValue v_ = gv(vm, name); CHECK_EQ(v_.fx, 1); CHECK_EQ(v_.v, q16); } while (0)

static void log_text(const BasicVM *vm, char *out, int cap)
{
    int n = basic_vm_log_copy(vm, out, cap - 1);
    out[n] = 0;
}

/* ---- numbers ---------------------------------------------------------------- */
static void test_arithmetic(void)
{
    int rc;
    BasicVM *vm = run("a = 7 \\ 2\nb = -7 \\ 2\nc = 7 mod 3\nd = -7 mod 3\ne = 3 / 2\nf = 1 / 3\ng = 2 / 3\n"
                      "h = 0.5 * 0.5\ni = 2147483647 + 1\nj = 65536 * 65536\nk = 2 * 3 + 4\nl = 2 + 3 * 4\n"
                      "m = (2 + 3) * 4\nn = 10 - 2 - 3\no = -2 * -3\np = 7 \\ 2 * 2\nq = 2 * 7 \\ 2\n"
                      "r = 1.5 + 2\ns = 3.0 \\ 2\nt = 1 + 1 mod 3\nu = 6 / 4 * 2\nv = -(-2147483647 - 1)\n"
                      "w = 32767 + 0.5\nx = 1.5 - 2\ny = 0.000001\nz = 12 mod 5 mod 3\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "a", 3);
    CHECK_INT(vm, "b", -3);            /* toward zero */
    CHECK_INT(vm, "c", 1);
    CHECK_INT(vm, "d", -1);
    CHECK_FX(vm, "e", 98304);          /* 1.5 */
    CHECK_FX(vm, "f", 21845);          /* 1/3 rounded */
    CHECK_FX(vm, "g", 43691);          /* 2/3 rounded up */
    CHECK_FX(vm, "h", 16384);
    CHECK_INT(vm, "i", INT32_MIN);     /* integers wrap */
    CHECK_INT(vm, "j", 0);
    CHECK_INT(vm, "k", 10);
    CHECK_INT(vm, "l", 14);
    CHECK_INT(vm, "m", 20);
    CHECK_INT(vm, "n", 5);
    CHECK_INT(vm, "o", 6);
    CHECK_INT(vm, "p", 1);             /* \ binds below *: 7 \ (2 * 2) */
    CHECK_INT(vm, "q", 7);             /* (2 * 7) \ 2 */
    CHECK_FX(vm, "r", 229376);         /* 3.5 */
    CHECK_INT(vm, "s", 1);             /* 3.0 is an exact integer */
    CHECK_INT(vm, "t", 2);             /* mod binds above + */
    CHECK_FX(vm, "u", 196608);         /* 1.5 * 2 */
    CHECK_INT(vm, "v", INT32_MIN);     /* -INT_MIN wraps */
    CHECK_FX(vm, "w", 32767 * 65536 + 32768);
    CHECK_FX(vm, "x", -32768);         /* -0.5 */
    CHECK_FX(vm, "y", 0);              /* below half a step */
    CHECK_INT(vm, "z", 2);
    basic_vm_free(vm);

    /* rounding: products and quotients to nearest, halves toward +infinity */
    vm = run("tiny = 1 / 16384 / 4\na = tiny * 0.5\nb = -tiny * 0.5\nc = 3 * tiny * 0.5\nd = -3 * tiny * 0.5\n"
             "e = 1 / -3\nf = -2 / 3\ng = tiny / 2\nh = -tiny / 2\ni = 32767.5 + 0.5\nj = -32767.0 - 1\n"
             "k = 1.5 * 1.5\nl = 7 / 3\nm = 1e-3\nn = 2.5D+2\no = .25\np = 2.\nq = 0.1 + 0.2\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_FX(vm, "tiny", 1);
    CHECK_FX(vm, "a", 1);              /* 0.5 step -> 1 */
    CHECK_FX(vm, "b", 0);              /* -0.5 step -> 0 */
    CHECK_FX(vm, "c", 2);              /* 1.5 -> 2 */
    CHECK_FX(vm, "d", -1);             /* -1.5 -> -1 */
    CHECK_FX(vm, "e", -21845);
    CHECK_FX(vm, "f", -43691);         /* -43690.67 -> -43691 */
    CHECK_FX(vm, "g", 1);              /* 0.5 -> 1 */
    CHECK_FX(vm, "h", 0);              /* -0.5 -> 0 */
    CHECK_FX(vm, "i", INT32_MIN);      /* decimals wrap: 32768 -> -32768 */
    CHECK_FX(vm, "j", INT32_MIN);
    CHECK_FX(vm, "k", 147456);         /* 2.25 */
    CHECK_FX(vm, "l", 152917);         /* 2.333... */
    CHECK_FX(vm, "m", 66);             /* 65.536 -> 66 */
    CHECK_FX(vm, "n", 250 * 65536);
    CHECK_FX(vm, "o", 16384);
    CHECK_FX(vm, "p", 131072);
    CHECK_FX(vm, "q", 19661);          /* 6554 + 13107 */
    basic_vm_free(vm);

    /* integer division corner cases */
    vm = run("a = (-2147483647 - 1) \\ -1\nb = (-2147483647 - 1) mod -1\nc = 6.0 mod 4\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "a", INT32_MIN);
    CHECK_INT(vm, "b", 0);
    CHECK_INT(vm, "c", 2);
    basic_vm_free(vm);
}

static void expect_runtime(const char *src, int code, const char *want)
{
    int rc;
    BasicVM *vm = run(src, &rc);
    if (!vm) return;
    CHECK_EQ(rc, code);
    CHECK(vm->disabled == 1);
    if (!strstr(vm->error, want)) fprintf(stderr, "runtime error '%s' lacks '%s'\n", vm->error, want);
    CHECK(strstr(vm->error, want) != NULL);
    CHECK(strncmp(vm->error, "t.bas:", 6) == 0);
    static char log[BASIC_LOG_BYTES + 1];
    log_text(vm, log, sizeof log);
    CHECK(strstr(log, "runtime error") != NULL);
    /* disabled: the next decision does nothing and says the same */
    int64_t decisions = vm->decisions;
    CHECK_EQ(basic_vm_run(vm, NULL, NULL), code);
    CHECK_EQ(vm->decisions, decisions);
    basic_vm_free(vm);
}

static void test_numeric_errors(void)
{
    expect_runtime("x = 0\ny = 1 / x\n", BASIC_ERR_DIVZERO, "t.bas:2:7: runtime error: division by zero");
    expect_runtime("x = 0\ny = 5 \\ x\n", BASIC_ERR_DIVZERO, "division by zero");
    expect_runtime("x = 0\ny = 5 mod x\n", BASIC_ERR_DIVZERO, "division by zero");
    expect_runtime("y = 1 / 0.00001\nz = 1 / (y - y)\n", BASIC_ERR_DIVZERO, "division by zero");
    expect_runtime("x = 40000\ny = x + 0.5\n", BASIC_ERR_RANGE, "integer 40000 does not fit a decimal");
    expect_runtime("x = 40000\ny = x / 2\n", BASIC_ERR_RANGE, "does not fit a decimal");
    expect_runtime("x = 3.5\ny = x \\ 2\n", BASIC_ERR_NOT_INTEGER, "3.50000 is not an integer");
    expect_runtime("x = 2.25\ny = 7 mod x\n", BASIC_ERR_NOT_INTEGER, "not an integer");
}

static void test_comparisons_and_logic(void)
{
    int rc;
    BasicVM *vm = run("a = 1 < 2\nb = 2 < 1\nc = 1.5 > 1\nd = 2 = 2.0\ne = 100000 > 1.5\nf = -100000 < -1.5\n"
                      "g = not 1\nh = 6 and 3\ni = 6 or 3\nj = 6 xor 3\nk = 6 eqv 3\nl = 6 imp 3\n"
                      "m = 1.5 and -1\nn = 2.5 and -1\no = 0.5 and -1\np = 1 xor 1 or 1\nx = 2\nq = not x = 1\n"
                      "r = 3 <> 3\ns = 2 >= 2\nt = 2 <= 1.99999\nu = true\nv = false\nw = -1.5 and -1\n"
                      "y = 1 < 2 and 3 < 4\nz = 1 + 2 = 3\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "a", -1);
    CHECK_INT(vm, "b", 0);
    CHECK_INT(vm, "c", -1);
    CHECK_INT(vm, "d", -1);
    CHECK_INT(vm, "e", -1);   /* exact over both ranges */
    CHECK_INT(vm, "f", -1);
    CHECK_INT(vm, "g", -2);
    CHECK_INT(vm, "h", 2);
    CHECK_INT(vm, "i", 7);
    CHECK_INT(vm, "j", 5);
    CHECK_INT(vm, "k", -6);
    CHECK_INT(vm, "l", -5);
    CHECK_INT(vm, "m", 2);    /* 1.5 rounds to even 2 */
    CHECK_INT(vm, "n", 2);    /* 2.5 rounds to even 2 */
    CHECK_INT(vm, "o", 0);
    CHECK_INT(vm, "p", 0);    /* or binds above xor */
    CHECK_INT(vm, "q", -1);   /* not (x = 1) */
    CHECK_INT(vm, "r", 0);
    CHECK_INT(vm, "s", -1);
    CHECK_INT(vm, "t", 0);
    CHECK_INT(vm, "u", -1);
    CHECK_INT(vm, "v", 0);
    CHECK_INT(vm, "w", -2);
    CHECK_INT(vm, "y", -1);
    CHECK_INT(vm, "z", -1);
    basic_vm_free(vm);
}

/* ---- statements ---------------------------------------------------------------- */
static void test_control_flow(void)
{
    int rc;
    BasicVM *vm = run(
        "' comments and REM lines are skipped\n"
        "REM a remark\n"
        "dim a(9), b(3)\n"
        "for i = 0 to 9\n  a(i) = i * i\nnext i\n"
        "sum = 0\nfor i = 9 to 0 step -1: sum = sum + a(i): next\n"
        "n = 0\nfor x = 0 to 1 step 0.25\n  n = n + 1\nnext\n"
        "skipped = 0\nfor i = 1 to 0\n  skipped = 1\nnext\n"
        "pairs = 0\nfor i = 1 to 3\nfor j = 1 to 3\npairs = pairs + 1\nnext j, i\n"
        "k = 0\nwhile k < 100\n  k = k + 7\nwend\n"
        "d = 0\ndo until d >= 5\n  d = d + 2\nloop\n"
        "e = 0\ndo\n  e = e + 1\n  if e = 3 then exit do\nloop while e < 10\n"
        "f = 0\ndo while f < 3: f = f + 1: loop\n"
        "g = 0\nfor i = 1 to 100\n  if i > 4 then exit for\n  g = g + i\nnext\n"
        "if g = 10 then\n  h = 1\nelseif g = 11 then\n  h = 2\nelse\n  h = 3\nend if\n"
        "if g = 11 then h2 = 1 else h2 = 2: h3 = 4\n"
        "if g = 10 then s1 = 1: s2 = 2\n"
        "if 0.5 then half = 1\n"
        "for i = 0 to 3\n  select case i\n  case 0\n    b(i) = 10\n  case 1, 2\n    b(i) = 20\n"
        "  case else\n    b(i) = 30\n  end select\nnext\n"
        "select case 17\ncase 1 to 9: r = 1\ncase is >= 10: r = 2\nend select\n"
        "let lv = 5\n"
        "last = i\n",
        &rc);
    CHECK_EQ(rc, BASIC_OK);
    int32_t n;
    const BasicValue *a = basic_vm_array(vm, "a", &n);
    CHECK(a != NULL);
    CHECK_EQ(n, 10);
    if (a) CHECK_EQ(a[9].v, 81);
    CHECK_INT(vm, "sum", 285);
    CHECK_INT(vm, "n", 5);
    CHECK_INT(vm, "skipped", 0);
    CHECK_INT(vm, "pairs", 9);
    CHECK_INT(vm, "k", 105);
    CHECK_INT(vm, "d", 6);
    CHECK_INT(vm, "e", 3);
    CHECK_INT(vm, "f", 3);
    CHECK_INT(vm, "g", 10);
    CHECK_INT(vm, "h", 1);
    CHECK_INT(vm, "h2", 2);
    CHECK_INT(vm, "h3", 4);   /* the else branch runs to the end of the line */
    CHECK_INT(vm, "s1", 1);
    CHECK_INT(vm, "s2", 2);
    CHECK_INT(vm, "half", 1);
    const BasicValue *b = basic_vm_array(vm, "b", &n);
    CHECK(b && b[0].v == 10 && b[1].v == 20 && b[2].v == 20 && b[3].v == 30);
    CHECK_INT(vm, "r", 2);
    CHECK_INT(vm, "lv", 5);
    CHECK_INT(vm, "last", 4);
    basic_vm_free(vm);
}

static void test_subs_and_persistence(void)
{
    int rc;
    BasicVM *vm = run(
        "dim memo(20)\n"
        "sub fact(n)\n  if n <= 1 then\n    result = 1\n    exit sub\n  end if\n  fact(n - 1)\n"
        "  result = result * n\nend sub\n"
        "sub swapper(a, b)\n  t = a: a = b: b = t\n  seenA = a\nend sub\n"
        "sub fib(n)\n  if n < 2 then\n    memo(n) = n\n    return\n  end if\n  fib(n - 1)\n  memo(n) = memo(n - 1) + memo(n - 2)\nend sub\n"
        "sub later()\n  calledLater = calledLater + 1\nend sub\n"
        "decisions = decisions + 1\n"
        "fact(10)\n"
        "x = 1: y = 2\nswapper(x, y)\n"
        "call fib(14)\n"
        "later\ncall later()\nlater()\n"
        "end\n"
        "never = 1\n",
        &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "result", 3628800);
    CHECK_INT(vm, "x", 1);       /* by value */
    CHECK_INT(vm, "seena", 2);   /* scratch variables inside subs are globals */
    int32_t n;
    const BasicValue *memo = basic_vm_array(vm, "memo", &n);
    CHECK(memo && memo[14].v == 377);
    CHECK_INT(vm, "calledlater", 3);
    CHECK(basic_vm_global(vm, "never") && gv(vm, "never").v == 0);
    CHECK_INT(vm, "decisions", 1);
    /* globals and arrays persist across decisions */
    CHECK_EQ(basic_vm_run(vm, NULL, NULL), BASIC_OK);
    CHECK_INT(vm, "decisions", 2);
    CHECK_INT(vm, "calledlater", 6);
    basic_vm_reset(vm);
    CHECK_INT(vm, "decisions", 0);
    basic_vm_free(vm);
}

static void test_print(void)
{
    int rc;
    BasicVM *vm = run("print \"hp \"; 42; \" q \"; 1.25; \" \"; -0.5\nprint\nprint \"no newline\";\nprint 7, 8\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    char log[256];
    log_text(vm, log, sizeof log);
    CHECK(strcmp(log, "hp 42 q 1.25000 -0.50000\n\nno newline78\n") == 0);
    basic_vm_free(vm);
    /* the log keeps the newest bytes */
    vm = run("for i = 1 to 20\n  print \"0123456789012345678901234567890123456789012345678\"\nnext\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    for (int k = 0; k < 9; k++) CHECK_EQ(basic_vm_run(vm, NULL, NULL), BASIC_OK);
    CHECK_EQ(vm->log_total, 10 * 20 * 50);
    char big[BASIC_LOG_BYTES + 1];
    CHECK_EQ(basic_vm_log_copy(vm, big, sizeof big), BASIC_LOG_BYTES);
    CHECK(big[BASIC_LOG_BYTES - 1] == '\n');
    basic_vm_free(vm);
}

/* ---- diagnostics ---------------------------------------------------------------- */
static void test_compile_errors(void)
{
    compile_fails("if x = 1 then\n  y = 1\n", "t.bas:3:1: expected 'end if' to close the if at line 1");
    compile_fails("x = (1 + 2\n", "t.bas:1:11: expected ')'");
    compile_fails("for i = 1 10\nnext\n", "t.bas:1:11: expected 'to' in the for statement, found '10'");
    compile_fails("while 1\nx = 1\n", "expected 'wend' to close the while at line 1");
    compile_fails("x = \n", "t.bas:1:5: expected a value, found end of line");
    compile_fails("x = 1 +* 2\n", "expected a value, found '*'");
    compile_fails("if x then\nelse\nelse\nend if\n", "expected 'end if'");
    compile_fails("next\n", "'next' without a matching opening statement");
    compile_fails("wend\n", "'wend' without");
    compile_fails("end if\n", "'end if' without a matching opening statement");
    compile_fails("x = 1 y = 2\n", "expected the end of the statement, found 'y'");
    compile_fails("selfX = 1\n", "cannot assign to 'selfx': it is a read-only host value");
    compile_fails("draftMode = 1\n", "cannot assign to 'draftmode': it is a read-only host value");
    compile_fails("walkto = 1\n", "host function");
    compile_fails("x = foo(1)\n", "unknown array or function 'foo'");
    compile_fails("foo(1)\n", "unknown sub or array 'foo'");
    compile_fails("x = objectCount\n", "'objectcount' is a host function: call it as objectcount(...)");
    compile_fails("x = objectX(1, 2)\n", "function 'objectx' takes 1 argument, got 2");
    compile_fails("sub f(a)\nend sub\nf(1, 2)\n", "sub 'f' takes 1 argument, got 2");
    compile_fails("sub f()\nend sub\nx = f()\n", "sub 'f' does not return a value");
    compile_fails("sub f()\nx = 1\n", "sub 'f' has no 'end sub'");
    compile_fails("sub f()\nsub g()\nend sub\nend sub\n", "t.bas:2:1: a sub cannot be defined inside another sub");
    compile_fails("sub f()\ndim a(3)\nend sub\n", "'dim' is allowed only at the top level");
    compile_fails("dim a(n)\n", "integer upper bound");
    compile_fails("dim a(3)\na = 1\n", "'a' is an array");
    compile_fails("dim a(3)\ndim a(4)\n", "'a' is already an array");
    compile_fails("goto 10\n", "'goto' is not supported");
    compile_fails("gosub x\n", "'gosub' is not supported");
    compile_fails("x$ = \"a\"\n", "string variables");
    compile_fails("x = \"a\"\n", "a string can only be printed");
    compile_fails("x = 2 ^ 3\n", "'^' (power) is not supported");
    compile_fails("print \"open\n", "unterminated string");
    compile_fails("x = 40000.5\n", "decimal number 40000.5 out of range");
    compile_fails("x = 2147483648\n", "integer 2147483648 out of range");
    compile_fails("exit for\n", "'exit for' outside a for loop");
    compile_fails("exit sub\n", "'exit sub' outside a sub");
    compile_fails("return\n", "'return' outside a sub");
    compile_fails("for i = 1 to 2\nfor i = 1 to 2\nnext\nnext\n", "nested for loops need different counters");
    compile_fails("for i = 1 to 2\nnext j\n", "'next j' does not match 'for i'");
    compile_fails("if 1 then for i = 1 to 2\n", "cannot be inside a single-line if");
    compile_fails("do while 1\nloop until 1\n", "at its start or at its end, not both");
    compile_fails("select case 1\nx = 1\nend select\n", "expected 'case' or 'end select'");
    compile_fails("sub f(a, a)\nend sub\n", "parameter 'a' appears twice");
    compile_fails("sub f(selfx)\nend sub\n", "parameter 'selfx' is already a read-only host value");
    compile_fails("x = ranger(1)\n", "'ranger' is a constant");
    compile_fails("a = 1 : \x01\n", "binary data: byte 0x01");
    compile_fails("\xff\xfe\x00garbage", "binary data: byte 0xFF");
    /* a NUL inside a comment is binary data too */
    {
        static const char src[] = "' hi\0there\nx = 1\n";
        GotaBasicProgram *p = NULL;
        char err[256];
        CHECK_EQ(gota_basic_compile(src, (int64_t)sizeof src - 1, "t.bas", &p, err, sizeof err), GOTA_ERR_RANGE);
        CHECK(strstr(err, "binary data") != NULL);
    }
    /* a NULL source, a tiny error buffer */
    {
        GotaBasicProgram *p = NULL;
        char err[8];
        CHECK_EQ(gota_basic_compile(NULL, 0, "t.bas", &p, err, sizeof err), GOTA_ERR_NULL);
        CHECK_EQ(gota_basic_compile("x = (", -1, "t.bas", &p, err, sizeof err), GOTA_ERR_RANGE);
        CHECK_EQ((int)strlen(err), 7);
        CHECK_EQ(gota_basic_compile("x = 1", -1, NULL, NULL, err, sizeof err), GOTA_ERR_NULL);
    }
}

static char *repeat(const char *unit, int n, const char *tail)
{
    size_t u = strlen(unit), t = strlen(tail);
    char *s = malloc(u * (size_t)n + t + 1);
    for (int i = 0; i < n; i++) memcpy(s + u * (size_t)i, unit, u);
    memcpy(s + u * (size_t)n, tail, t + 1);
    return s;
}

static void test_compile_limits(void)
{
    compile_fails("dim a(4096)\n", "arrays too large: at most 4096 elements");
    compile_fails("dim a(2000), b(2000), c(100)\n", "arrays too large");
    compile_fails("dim a(100000000)\n", "arrays too large");
    {
        char src[2048] = "";
        for (int i = 0; i < 33; i++) sprintf(src + strlen(src), "dim a%d(1)\n", i);
        compile_fails(src, "too many arrays: at most 32");
    }
    {
        char *src = malloc(8000);
        src[0] = 0;
        for (int i = 0; i < 257; i++) sprintf(src + strlen(src), "v%d = 1\n", i);
        compile_fails(src, "too many variables: at most 256");
        free(src);
    }
    {
        char *src = repeat("if 1 then\n", 33, "");
        compile_fails(src, "blocks nested too deeply (32 levels)");
        free(src);
        src = repeat("(", 40, "1");
        char *full = malloc(strlen(src) + 8);
        sprintf(full, "x = %s", src);
        compile_fails(full, "expression nested too deeply");
        free(full);
        free(src);
        src = repeat("-", 100, "1\n");
        full = malloc(strlen(src) + 8);
        sprintf(full, "x = %s", src);
        compile_fails(full, "expression nested too deeply");
        free(full);
        free(src);
    }
    {
        char *src = malloc(4096);
        src[0] = 0;
        for (int i = 0; i < 64; i++) sprintf(src + strlen(src), "sub s%d()\nend sub\n", i);
        compile_fails(src, "too many subs");
        free(src);
        compile_fails("sub f(a,b,c,d,e,f1,g,h,i,j,k,l,m,n,o,p,q)\nend sub\n", "too many parameters: at most 16");
    }
    {
        char *src = repeat("a=a*b:", 10001, "\n");   /* 2 counted instructions each */
        compile_fails(src, "compiled instructions, at most 20000");
        free(src);
        src = repeat("x", 70000, "");
        compile_fails(src, "source too large");
        free(src);
        char name[80];
        memset(name, 'a', 70);
        name[70] = 0;
        char full[100];
        sprintf(full, "%s = 1\n", name);
        compile_fails(full, "name longer than 63 characters");
    }
    /* the largest arrays fit */
    GotaBasicProgram *p = compile_ok("dim a(4095)\na(4095) = 7\n");
    GotaBasicInfo info;
    CHECK_EQ(gota_basic_info(p, &info), GOTA_OK);
    CHECK_EQ(info.arrays, 1);
    CHECK_EQ(info.elements, 4096);
    CHECK(info.memory <= BASIC_MAX_MEMORY);
    gota_basic_free(p);
}

/* ---- runtime limits -------------------------------------------------------------- */
static void test_runtime_limits(void)
{
    expect_runtime("while 1\nwend\n", BASIC_ERR_INSTRUCTIONS,
                   "instruction limit: more than 20000 instructions in one decision");
    expect_runtime("do\nloop\n", BASIC_ERR_INSTRUCTIONS, "instruction limit");
    expect_runtime("sub f()\n  f()\nend sub\nf()\n", BASIC_ERR_DEPTH, "call depth limit: more than 16 nested sub calls");
    expect_runtime("sub a()\n  b()\nend sub\nsub b()\n  a()\nend sub\na()\n", BASIC_ERR_DEPTH, "call depth limit");
    expect_runtime("dim a(9)\ni = 10\na(i) = 1\n", BASIC_ERR_RANGE,
                   "t.bas:3:1: runtime error: array index 10 out of bounds: 'a' has indices 0 .. 9");
    expect_runtime("dim a(9)\nx = a(-1)\n", BASIC_ERR_RANGE, "array index -1 out of bounds");
    expect_runtime("dim a(9)\nx = a(1.5)\n", BASIC_ERR_NOT_INTEGER, "array index 1.50000 of 'a' is not an integer");
    expect_runtime("for i = 1 to 200\n  print i\nnext\n", BASIC_ERR_PRINT, "print limit");
    expect_runtime("for i = 1 to 30\n  print \"0123456789012345678901234567890123456789\"\nnext\n", BASIC_ERR_PRINT,
                   "print limit");
    /* a zero step runs until the budget stops it */
    expect_runtime("for i = 1 to 2 step 0\nnext\n", BASIC_ERR_INSTRUCTIONS, "instruction limit");
    /* just under the budget is fine, and the count restarts every decision */
    int rc;
    BasicVM *vm = run("for i = 1 to 3000\nnext\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK(vm->instructions > 8000 && vm->instructions <= BASIC_DECISION_INSTRUCTIONS);
    CHECK_EQ(basic_vm_run(vm, NULL, NULL), BASIC_OK);
    CHECK_EQ(basic_vm_run(vm, NULL, NULL), BASIC_OK);
    basic_vm_free(vm);
    /* a host call without a host is refused (and disables the VM) */
    vm = run("x = objectCount()\n", &rc);
    CHECK_EQ(rc, BASIC_ERR_HOST);
    basic_vm_free(vm);
    /* the public names of the error kinds */
    CHECK(strcmp(gota_script_error_name(GOTA_SCRIPT_ERR_NONE), "none") == 0);
    CHECK(strcmp(gota_script_error_name(BASIC_ERR_INSTRUCTIONS), "instruction limit") == 0);
    CHECK(strcmp(gota_script_error_name(BASIC_ERR_HOST), "bad host call") == 0);
    for (int code = 0; code < GOTA_SCRIPT_ERRORS; code++) CHECK(gota_script_error_name(code) != NULL);
    CHECK(gota_script_error_name(-1) == NULL);
    CHECK(gota_script_error_name(GOTA_SCRIPT_ERRORS) == NULL);
}

/* Random token soups and random bytes: the compiler answers, never crashes;
 * whatever compiles runs within its limits. */
static void test_fuzz(void)
{
    static const char *const words[] = {
        "x", "y", "a(", "dim a(3)", "if", "then", "else", "end if", "for i = 1 to 3", "next", "while", "wend",
        "do", "loop", "sub s()", "end sub", "s()", "(", ")", "+", "-", "*", "/", "\\", "mod", "=", "<>", "<",
        "and", "or", "not", "1", "0", "1.5", "32767", "2147483647", "print", "\"t\"", ",", ";", ":", "\n", "\n",
        "exit for", "exit do", "exit sub", "select case x", "case 1", "case else", "end select", "end", "objectCount()",
        "selfX", "walkTo(1, 2)", "true", "call s", "return", "elseif", "until", "step -1", "gosub",
    };
    uint64_t rng = 12345;
    int compiled = 0;
    for (int round = 0; round < 600; round++) {
        char src[2048];
        size_t n = 0;
        int len = 1 + (int)(rng_below(&rng, 60));
        for (int k = 0; k < len; k++) {
            const char *w = words[rng_below(&rng, sizeof words / sizeof words[0])];
            size_t wl = strlen(w);
            if (n + wl + 2 >= sizeof src) break;
            memcpy(src + n, w, wl);
            n += wl;
            src[n++] = ' ';
        }
        src[n] = 0;
        GotaBasicProgram *p = NULL;
        char err[256];
        int rc = gota_basic_compile(src, (int64_t)n, "fuzz.bas", &p, err, sizeof err);
        CHECK(rc == GOTA_OK || (rc == GOTA_ERR_RANGE && strncmp(err, "fuzz.bas:", 9) == 0));
        if (rc == GOTA_OK) {
            compiled++;
            BasicVM *vm = basic_vm_new(p);
            for (int k = 0; k < 3; k++) basic_vm_run(vm, NULL, NULL);
            basic_vm_free(vm);
            gota_basic_free(p);
        }
    }
    CHECK(compiled > 0);
    /* whole lines: more of them compile and run */
    static const char *const lines[] = {
        "x = x + 1", "if x > 3 then", "end if", "else", "for i = 1 to 3", "next", "while x < 5", "wend",
        "print x; \"t\"", "y = 1 / (x - 2)", "dim a(3)", "a(x mod 4) = y", "do", "loop until x > 9", "exit do",
        "exit for", "sub s(p)", "end sub", "s(x)", "select case x", "case 1 to 3", "case else", "end select",
        "if x then y = 2 else y = 3", "end", "z = x \\ 3 + not y", "x = x * 1.5",
    };
    compiled = 0;
    for (int round = 0; round < 1500; round++) {
        char src[2048];
        size_t n = 0;
        int len = 1 + (int)(rng_below(&rng, 12));
        for (int k = 0; k < len; k++) {
            const char *w = lines[rng_below(&rng, sizeof lines / sizeof lines[0])];
            size_t wl = strlen(w);
            memcpy(src + n, w, wl);
            n += wl;
            src[n++] = '\n';
        }
        src[n] = 0;
        GotaBasicProgram *p = NULL;
        char err[256];
        int rc = gota_basic_compile(src, (int64_t)n, "lines.bas", &p, err, sizeof err);
        CHECK(rc == GOTA_OK || (rc == GOTA_ERR_RANGE && strncmp(err, "lines.bas:", 10) == 0));
        if (rc == GOTA_OK) {
            compiled++;
            BasicVM *vm = basic_vm_new(p);
            for (int k = 0; k < 3; k++) basic_vm_run(vm, NULL, NULL);
            basic_vm_free(vm);
            gota_basic_free(p);
        }
    }
    if (compiled <= 20) fprintf(stderr, "lines fuzz: %d compiled\n", compiled);
    CHECK(compiled > 20);
    for (int round = 0; round < 300; round++) {
        unsigned char bytes[512];
        int len = (int)rng_below(&rng, sizeof bytes);
        for (int k = 0; k < len; k++) bytes[k] = (unsigned char)rng_below(&rng, 256);
        GotaBasicProgram *p = NULL;
        char err[256];
        int rc = gota_basic_compile((const char *)bytes, len, "junk.bas", &p, err, sizeof err);
        if (rc == GOTA_OK) gota_basic_free(p);
        else CHECK(strncmp(err, "junk.bas:", 9) == 0);
    }
}

/* ---- the host, against the simulator ----------------------------------------------- */
static GotaMatch *scripted_match(int64_t seed, const int seats[], int n, const char *src, GotaBasicProgram **prog)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.seed = seed;
    int err = 0;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK(m != NULL);
    GotaBasicProgram *p = compile_ok(src);
    for (int k = 0; k < n; k++) CHECK_EQ(gota_match_set_script(m, seats[k], p), GOTA_OK);
    CHECK_EQ(gota_match_reset(m, seed), GOTA_OK);
    if (prog) *prog = p;
    else gota_basic_free(p);
    return m;
}

static int32_t tile_of(int team, int32_t w)
{
    int64_t v = (int64_t)w + MAP_HALF_WORLD - (team ? 1 : 0);
    int64_t q = v / GOTA_TILE;
    if (v % GOTA_TILE != 0 && v < 0) q--;
    return (int32_t)q;
}

static int32_t gi(const GotaMatch *m, int seat, const char *name)
{
    const BasicValue *v = basic_vm_global(m->script[seat], name);
    if (!v) fprintf(stderr, "seat %d: no global %s\n", seat, name);
    return v ? v->v : 0x7badbad;
}

static void test_host_self_and_objects(void)
{
    const char *src =
        "dim ids(767), kinds(767), teams(767), xs(767), ys(767)\n"
        "sid = selfId: steam = selfTeam: scls = selfClass: sx = selfX: sy = selfY: shp = selfHp\n"
        "smaxhp = selfMaxHp: smana = selfMana: smaxmana = selfMaxMana: sgold = selfGold: slevel = selfLevel\n"
        "tick = worldTick: srange = selfAttackRange: sdmg = selfAttackDamage: sspeed = selfMoveSpeed\n"
        "scd = selfAttackCooldown: slayer = selfLayer: sdraft = drafting: sturn = draftTurnId: smode = draftMode\n"
        "n = objectCount()\n"
        "for i = 0 to n - 1\n"
        "  ids(i) = objectId(i): kinds(i) = objectKind(i): teams(i) = objectTeam(i)\n"
        "  xs(i) = objectX(i): ys(i) = objectY(i)\n"
        "next\n"
        "bad = objectId(n) + objectKind(-1) + objectHp(100000)\n"
        "badcamp = objectCamp(n)\n"
        "camps = campCount(): c0x = campX(0): c0y = campY(0): c0t = campTier(0): cbad = campTier(99)\n"
        "pc = draftPlayerCount(): p7 = draftPlayerId(7): t7 = draftPlayerTeam(7): tbad = draftPlayerTeam(10)\n"
        "mine = draftedClass(selfId): role9 = heroRole(9): rolebad = heroRole(10): avail = heroAvailable(0)\n"
        "w = mapWidth: ws = worldScale: tr = tickRate: vk = VanguardKnight: bz = Berserker\n"
        "aerr = ActionNoRoute: sil = ActionSilenced\n";
    const int seats[] = {0, 7};
    GotaMatch *m = scripted_match(5, seats, 2, src, NULL);
    int32_t ran = 0;
    CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_OK);
    for (int k = 0; k < 2; k++) {
        int seat = seats[k], team = seat / 5;
        const GotaUnit *u = &m->unit[m->hero_slot[seat]];
        const HeroState *h = &m->hero[seat];
        CHECK_EQ(gi(m, seat, "sid"), 100 + seat);
        CHECK_EQ(gi(m, seat, "steam"), team);
        CHECK_EQ(gi(m, seat, "scls"), h->cls);
        CHECK_EQ(gi(m, seat, "sx"), tile_of(team, u->x));
        CHECK_EQ(gi(m, seat, "sy"), tile_of(team, u->z));
        CHECK_EQ(gi(m, seat, "shp"), u->hp);
        CHECK_EQ(gi(m, seat, "smaxhp"), u->max_hp);
        CHECK_EQ(gi(m, seat, "smana"), h->mana);
        CHECK_EQ(gi(m, seat, "smaxmana"), h->max_mana);
        CHECK_EQ(gi(m, seat, "sgold"), h->gold);
        CHECK_EQ(gi(m, seat, "slevel"), 1);
        CHECK_EQ(gi(m, seat, "tick"), 1);
        CHECK_EQ(gi(m, seat, "srange"), u->range);
        CHECK_EQ(gi(m, seat, "sdmg"), u->damage);
        CHECK_EQ(gi(m, seat, "sspeed"), h->move_speed);
        CHECK_EQ(gi(m, seat, "scd"), m->st[m->hero_slot[seat]].windup);
        CHECK_EQ(gi(m, seat, "slayer"), team == 0 ? 1 : 2);   /* in the own fort */
        CHECK_EQ(gi(m, seat, "sdraft"), 0);
        CHECK_EQ(gi(m, seat, "smode"), 0);   /* unique draft, the only mode */
        CHECK_EQ(gi(m, seat, "sturn"), 0);
        /* the object list: what the team sees, sorted */
        int expect_n = 0;
        for (int i = 0; i < m->unit_n; i++) {
            const GotaUnit *o = &m->unit[i];
            if (o->kind != GOTA_KIND_NONE && m->seen[team][i] && (o->alive || (o->kind == GOTA_KIND_HERO && o->team == team)))
                expect_n++;
        }
        int32_t n = gi(m, seat, "n");
        CHECK_EQ(n, expect_n);
        int32_t len;
        const BasicValue *ids = basic_vm_array(m->script[seat], "ids", &len);
        const BasicValue *kinds = basic_vm_array(m->script[seat], "kinds", &len);
        const BasicValue *teams = basic_vm_array(m->script[seat], "teams", &len);
        const BasicValue *xs = basic_vm_array(m->script[seat], "xs", &len);
        const BasicValue *ys = basic_vm_array(m->script[seat], "ys", &len);
        static const int group[7] = {9, 0, 2, 3, 1, 1, 4};
        int64_t prev = -1;
        for (int i = 0; i < n; i++) {
            int slot = unit_slot_of_id(m, ids[i].v);
            CHECK(slot >= 0);
            if (slot < 0) continue;
            const GotaUnit *o = &m->unit[slot];
            CHECK_EQ(kinds[i].v, o->kind);
            CHECK_EQ(teams[i].v, o->team);
            CHECK_EQ(xs[i].v, tile_of(team, o->x));
            CHECK_EQ(ys[i].v, tile_of(team, o->z));
            int32_t rx = team ? 115 - xs[i].v : xs[i].v, rz = team ? 115 - ys[i].v : ys[i].v;
            int64_t key = ((int64_t)group[o->kind] << 40) | ((int64_t)(o->team != team) << 39) | ((int64_t)rz << 32) |
                          ((int64_t)rx << 25) | o->id;
            CHECK(key > prev);
            prev = key;
        }
        CHECK_EQ(kinds[0].v, GOTA_KIND_GOD);
        CHECK_EQ(teams[0].v, team);
        CHECK_EQ(gi(m, seat, "bad"), 0);
        CHECK_EQ(gi(m, seat, "badcamp"), -1);
        CHECK_EQ(gi(m, seat, "camps"), MAP_CAMPS);
        CHECK_EQ(gi(m, seat, "c0x"), tile_of(team, m->map->camp[0].x));
        CHECK_EQ(gi(m, seat, "c0y"), tile_of(team, m->map->camp[0].z));
        CHECK_EQ(gi(m, seat, "c0t"), m->map->camp[0].tier);
        CHECK_EQ(gi(m, seat, "cbad"), 0);
        CHECK_EQ(gi(m, seat, "pc"), 10);
        CHECK_EQ(gi(m, seat, "p7"), 107);
        CHECK_EQ(gi(m, seat, "t7"), 1);
        CHECK_EQ(gi(m, seat, "tbad"), -1);
        CHECK_EQ(gi(m, seat, "mine"), h->cls);
        CHECK_EQ(gi(m, seat, "role9"), HERO_CLASS[9].role);
        CHECK_EQ(gi(m, seat, "rolebad"), -1);
        CHECK_EQ(gi(m, seat, "avail"), 0);   /* every class is drafted */
        CHECK_EQ(gi(m, seat, "w"), 116);
        CHECK_EQ(gi(m, seat, "ws"), 60000);
        CHECK_EQ(gi(m, seat, "tr"), 24);
        CHECK_EQ(gi(m, seat, "vk"), 0);
        CHECK_EQ(gi(m, seat, "bz"), 9);
        CHECK_EQ(gi(m, seat, "aerr"), 14);
        CHECK_EQ(gi(m, seat, "sil"), 35);
    }
    GotaScriptStatus st;
    CHECK_EQ(gota_match_script_status(m, 0, &st), GOTA_OK);
    CHECK_EQ(st.active, 1);
    CHECK_EQ(st.disabled, 0);
    CHECK(st.decisions >= 1);
    CHECK(strcmp(st.program, "t.bas") == 0);
    CHECK_EQ(gota_match_script_status(m, 1, &st), GOTA_OK);
    CHECK_EQ(st.active, 0);
    gota_match_free(m);
}

/* Extended object queries, spells, items and abilities, terrain. */
static void test_host_queries(void)
{
    const char *src =
        "dim lv(255), mana(255), item0(255), fx(255), fy(255), tgt(255), stun(255), camp(255), ldr(255), ret(255)\n"
        "dim cls(255)\n"
        "n = objectCount()\n"
        "for i = 0 to n - 1\n"
        "  if i > 255 then exit for\n"
        "  lv(i) = objectLevel(i): mana(i) = objectMana(i): item0(i) = objectItemId(i, 0) + 100 * objectItemCount(i, 0)\n"
        "  fx(i) = objectFacingX(i): fy(i) = objectFacingY(i): tgt(i) = objectTarget(i): stun(i) = objectStunTicks(i)\n"
        "  camp(i) = objectCamp(i): ldr(i) = objectLeader(i): ret(i) = objectReturning(i): cls(i) = objectClass(i)\n"
        "next\n"
        "badslot = objectItemId(0, 6)\n"
        "sc = spellCount(): sab = spellAbility(0): sbad = spellAbility(sc): scast = spellCasterId(0)\n"
        "sx = spellX(0): sy = spellY(0): sit = spellImpactTick(0)\n"
        "i0 = itemId(0): c0 = itemCount(0): cd0 = itemCooldown(0): ibad = itemId(6): shop = canShop(): spawn = inOwnSpawn()\n"
        "pts = abilityPoints(): al3 = abilityLevel(3): aml3 = abilityMaxLevel(3): arl3 = abilityRequiredLevel(3)\n"
        "arl0 = abilityRequiredLevel(0): can0 = canLevelAbility(0): can3 = canLevelAbility(3)\n"
        "cost1 = abilityManaCost(1): dmg1 = abilityDamage(1): ch1 = abilityCharges(1): acd1 = abilityCooldown(1)\n"
        "arc1 = abilityRecharge(1): abad = abilityLevel(4): bbp = buybackPrice()\n"
        "tk = terrainKind(58, 58): tkbad = terrainKind(-1, 3): th = terrainHeight(58, 58): tw = terrainWalkable(58, 58)\n"
        "twd = terrainWaterDepth(58, 58)\n"
        "tka = terrainKindAt(58, 58, GroundLayer): tkw = terrainKindAt(58, 58, WaterLayer)\n"
        "tower = terrainWalkable(tx, ty)\n";
    const int seats[] = {2};
    GotaMatch *m = scripted_match(9, seats, 1, src, NULL);
    /* a tower's footprint tile for the terrain check, read next decision */
    const MapBuilding *tb = &m->map->building[MAP_IDX_TOWER(1, 0, 0)];
    int ft = tb->footprint[0];
    BasicValue *tx = (BasicValue *)basic_vm_global(m->script[2], "tx");
    BasicValue *ty = (BasicValue *)basic_vm_global(m->script[2], "ty");
    CHECK(tx && ty);
    /* play until the heroes have walked out and spells fly: learn and cast from outside */
    GotaCommand lvl = {GOTA_CMD_LEVEL, 0, 0, 0, 1, 0};
    for (int s = 0; s < 10; s++) {
        gota_match_command(m, s, &lvl, NULL);
        GotaCommand go = {GOTA_CMD_ATTACK_MOVE, 0, 0, 0, 0, 0};
        if (s != 2) gota_match_command(m, s, &go, NULL);
    }
    int32_t ran;
    gota_match_step(m, 600, &ran);
    if (tx && ty) {
        *tx = (BasicValue){ft % MAP_N, 0};
        *ty = (BasicValue){ft / MAP_N, 0};
    }
    gota_match_step(m, 1, &ran);
    const BasicVM *vm = m->script[2];
    CHECK_EQ(vm->disabled, 0);
    int team = 0;
    int32_t n = gi(m, 2, "n"), len;
    const BasicValue *lv = basic_vm_array(vm, "lv", &len), *mana = basic_vm_array(vm, "mana", &len);
    const BasicValue *item0 = basic_vm_array(vm, "item0", &len), *fx = basic_vm_array(vm, "fx", &len);
    const BasicValue *fy = basic_vm_array(vm, "fy", &len), *tgt = basic_vm_array(vm, "tgt", &len);
    const BasicValue *camp = basic_vm_array(vm, "camp", &len), *ldr = basic_vm_array(vm, "ldr", &len);
    const BasicValue *cls = basic_vm_array(vm, "cls", &len);
    int checked_heroes = 0, checked_neutrals = 0;
    /* the object ids of the same list: a second script run as seat 2 on the same tick */
    const char *src2 = "dim ids(767)\nn = objectCount()\nfor i = 0 to n - 1: ids(i) = objectId(i): next\n";
    GotaBasicProgram *p2 = compile_ok(src2);
    BasicVM *saved = m->script[2];
    m->script[2] = basic_vm_new(p2);
    gota_basic_free(p2);
    /* same tick: run the id script as seat 2 by hand */
    script_decide(m, 2);
    const BasicValue *ids = basic_vm_array(m->script[2], "ids", &len);
    for (int i = 0; i < n && i < 256; i++) {
        int slot = unit_slot_of_id(m, ids[i].v);
        CHECK(slot >= 0);
        if (slot < 0) continue;
        const GotaUnit *o = &m->unit[slot];
        int hs = hero_seat_of_slot(m, slot);
        if (hs >= 0) {
            checked_heroes++;
            CHECK_EQ(lv[i].v, m->hero[hs].level);
            CHECK_EQ(mana[i].v, m->hero[hs].mana);
            CHECK_EQ(item0[i].v, m->hero[hs].item[0] + 100 * m->hero[hs].item_count[0]);
            CHECK_EQ(cls[i].v, m->hero[hs].cls);
        } else {
            CHECK_EQ(lv[i].v, 0);
            CHECK_EQ(mana[i].v, 0);
        }
        /* facing: a unit vector scaled by worldScale */
        int64_t f2 = (int64_t)fx[i].v * fx[i].v + (int64_t)fy[i].v * fy[i].v;
        CHECK(f2 > 59000LL * 59000LL && f2 < 61000LL * 61000LL);
        int t = unit_target_slot(m, slot);
        CHECK_EQ(tgt[i].v, t >= 0 && m->seen[team][t] ? m->unit[t].id : 0);
        if (o->kind == GOTA_KIND_NEUTRAL) {
            checked_neutrals++;
            CHECK_EQ(camp[i].v, m->st[slot].camp);
            CHECK_EQ(cls[i].v, m->map->camp[m->st[slot].camp].tier);
            CHECK_EQ(ldr[i].v, m->camp[m->st[slot].camp].member[0] == slot && m->map->camp[m->st[slot].camp].members > 1);
        } else {
            CHECK_EQ(camp[i].v, -1);
            CHECK_EQ(ldr[i].v, 0);
        }
        if (o->kind == GOTA_KIND_CREEP) CHECK_EQ(cls[i].v, o->sub);
        if (o->kind == GOTA_KIND_TOWER) CHECK_EQ(cls[i].v, -1);
    }
    CHECK(checked_heroes >= 5);
    basic_vm_free(m->script[2]);
    m->script[2] = saved;
    vm = saved;
    CHECK_EQ(gi(m, 2, "badslot"), 0);
    /* spells: compare with gota_match_spells for red */
    GotaSpell sp[64];
    int32_t spn = 0;
    gota_match_spells(m, 0, sp, 64, &spn);
    CHECK_EQ(gi(m, 2, "sc"), spn);
    CHECK_EQ(gi(m, 2, "sbad"), -1);
    if (spn > 0) {
        CHECK(gi(m, 2, "sab") >= 0 && gi(m, 2, "sab") < 40);
        CHECK(gi(m, 2, "sit") >= m->tick);
    }
    const HeroState *h = &m->hero[2];
    CHECK_EQ(gi(m, 2, "i0"), h->item[0]);
    CHECK_EQ(gi(m, 2, "c0"), h->item_count[0]);
    CHECK_EQ(gi(m, 2, "ibad"), 0);
    CHECK_EQ(gi(m, 2, "pts"), h->points);
    CHECK_EQ(gi(m, 2, "al3"), h->rank[3]);
    CHECK_EQ(gi(m, 2, "aml3"), 3);
    CHECK_EQ(gi(m, 2, "arl3"), 6 * (h->rank[3] + 1));
    CHECK_EQ(gi(m, 2, "arl0"), h->rank[0] >= 4 ? 0 : 2 * (h->rank[0] + 1) - 1);
    CHECK_EQ(gi(m, 2, "cost1"), HERO_CLASS[h->cls].ability[1].mana);
    CHECK_EQ(gi(m, 2, "ch1"), h->charges[1]);
    CHECK_EQ(gi(m, 2, "acd1"), h->cooldown[1]);
    CHECK_EQ(gi(m, 2, "arc1"), h->recharge[1]);
    CHECK_EQ(gi(m, 2, "abad"), 0);
    CHECK_EQ(gi(m, 2, "bbp"), 0);   /* alive */
    int t58 = map_index(58, 58);
    CHECK_EQ(gi(m, 2, "tk"), m->map->material[t58]);
    CHECK_EQ(gi(m, 2, "tkbad"), 0);
    CHECK_EQ(gi(m, 2, "th"), m->map->height8[t58]);
    CHECK_EQ(gi(m, 2, "tw"), m->map->walkable[t58]);
    CHECK_EQ(gi(m, 2, "twd"), m->map->material[t58] == GOTA_MAT_WATER ? 8 : 0);
    CHECK_EQ(gi(m, 2, "tower"), m->building_alive[MAP_IDX_TOWER(1, 0, 0)] ? 0 : 1);
    gota_match_free(m);
    (void)checked_neutrals;
}

/* The remaining host functions: velocities, controls, spells, shop and spawn
 * flags, ability effects, terrain layers, the portal scroll, buyback. */
static void test_host_more(void)
{
    const char *src =
        "if drafting then end\n"
        "dim vx(255), vy(255), ids(255), stun(255), sil(255), ret(255)\n"
        "n = objectCount()\n"
        "for i = 0 to n - 1\n"
        "  if i > 255 then exit for\n"
        "  ids(i) = objectId(i): vx(i) = objectVelX(i): vy(i) = objectVelY(i): stun(i) = objectStunTicks(i)\n"
        "  sil(i) = objectSilenceTicks(i) + 1000 * objectRootTicks(i): ret(i) = objectReturning(i)\n"
        "next\n"
        "sc = spellCount(): scast = spellCasterId(0): sx = spellX(0): sy = spellY(0): sit = spellImpactTick(0)\n"
        "sab = spellAbility(0)\n"
        "shop = canShop(): spawn = inOwnSpawn(): can0 = canLevelAbility(0): can3 = canLevelAbility(3)\n"
        "d0 = abilityDamage(0): h0 = abilityHeal(0): r0 = abilityRestore(0)\n"
        "d1 = abilityDamage(1): h1 = abilityHeal(1): r1 = abilityRestore(1)\n"
        "lay = selfLayer: tka = terrainKindAt(selfX, selfY, selfLayer): tkg = terrainKindAt(selfX, selfY, GroundLayer)\n"
        "twa = terrainWalkableAt(selfX, selfY, selfLayer): tha = terrainHeightAt(selfX, selfY, selfLayer)\n"
        "bbp = buybackPrice(): rsp = selfRespawnTicks: dth = selfDeaths: pcd = selfPortalCooldown\n"
        "chan = selfChannelTicks: landed = selfAttacksLanded\n"
        "if doPortal = 1 then\n"
        "  doPortal = 2\n"
        "  okScroll = buyItem(21)\n"
        "  for s = 0 to 5\n"
        "    if itemId(s) = 21 then scrollSlot = s\n"
        "  next\n"
        "  okPortal = useItemAt(scrollSlot, px, py): ePortal = lastActionError()\n"
        "end if\n"
        "if doBuyback = 1 then\n"
        "  doBuyback = 2\n"
        "  okBuyback = buyback(): eBuyback = lastActionError()\n"
        "end if\n";
    const int seats[] = {0};
    GotaMatch *m = scripted_match(6, seats, 1, src, NULL);
    int32_t ran;
    gota_match_step(m, 1, &ran);
    /* tick 1: in the spawn room, nothing learned */
    const HeroState *h = &m->hero[0];
    CHECK_EQ(gi(m, 0, "shop"), 1);
    CHECK_EQ(gi(m, 0, "spawn"), 1);
    CHECK_EQ(gi(m, 0, "can0"), 1);
    CHECK_EQ(gi(m, 0, "can3"), 0);
    CHECK_EQ(gi(m, 0, "d0") + gi(m, 0, "h0") + gi(m, 0, "r0"), 0);   /* locked */
    CHECK_EQ(gi(m, 0, "lay"), 1);
    CHECK_EQ(gi(m, 0, "tka"), gi(m, 0, "tkg") ? 0 : gi(m, 0, "tka"));   /* a fort tile is not on the ground layer */
    CHECK_EQ(gi(m, 0, "tkg"), 0);
    CHECK(gi(m, 0, "tka") > 0);
    CHECK_EQ(gi(m, 0, "twa"), 1);
    CHECK_EQ(gi(m, 0, "tha"), m->map->height8[map_index_of(m->unit[m->hero_slot[0]].x, m->unit[m->hero_slot[0]].z)]);
    CHECK_EQ(gi(m, 0, "bbp"), 0);
    CHECK_EQ(gi(m, 0, "rsp"), 0);
    CHECK_EQ(gi(m, 0, "landed"), 0);
    /* learn W and Q on every red seat; an area spell of an ally is pending next tick */
    int caster = -1;
    for (int s = 0; s < 5; s++) {
        GotaCommand q = {GOTA_CMD_LEVEL, 0, 0, 0, 0, 0};
        gota_match_command(m, s, &q, NULL);
        const AbilityDef *e = &HERO_CLASS[m->hero[s].cls].ability[2];
        if (caster < 0 && s != 0 && e->cast == CAST_AREA && e->effect == EFFECT_DAMAGE && e->delay > 2) caster = s;
    }
    gota_match_step(m, 1, &ran);
    CHECK(caster >= 0);   /* seed 6 drafts an ally with a delayed damaging area E */
    {
        const AbilityDef *q = &HERO_CLASS[h->cls].ability[0];
        CHECK_EQ(gi(m, 0, "d0"), q->effect == EFFECT_DAMAGE ? ability_scaled(q->amount, 1) : 0);
        CHECK_EQ(gi(m, 0, "h0"), q->effect == EFFECT_HEAL ? ability_scaled(q->amount, 1) : 0);
        CHECK_EQ(gi(m, 0, "r0"), q->effect == EFFECT_RESTORE ? ability_scaled(q->amount, 1) : 0);
        CHECK_EQ(gi(m, 0, "can0"), 0);   /* no point left */
    }
    if (caster >= 0) {
        /* the caster learns E with a point from the test (as if it had levelled) */
        m->hero[caster].points++;
        GotaCommand e = {GOTA_CMD_LEVEL, 0, 0, 0, 2, 0};
        CHECK_EQ(gota_match_command(m, caster, &e, NULL), GOTA_OK);
        const GotaUnit *cu = &m->unit[m->hero_slot[caster]];
        GotaCommand cast = {GOTA_CMD_CAST_POINT, 0, cu->x - GOTA_TILE, cu->z + GOTA_TILE, 2, 0};
        int32_t answer = -1;
        gota_match_command(m, caster, &cast, &answer);
        CHECK_EQ(answer, GOTA_ACT_OK);
        gota_match_step(m, 1, &ran);
        CHECK(m->spell_n >= 1);
        const Spell *sp = &m->spell[0];
        CHECK_EQ(gi(m, 0, "sc"), m->spell_n);
        CHECK_EQ(gi(m, 0, "scast"), 100 + caster);
        CHECK_EQ(gi(m, 0, "sab"), m->hero[caster].cls * 4 + 2);
        CHECK_EQ(gi(m, 0, "sx"), tile_of(0, sp->x));
        CHECK_EQ(gi(m, 0, "sy"), tile_of(0, sp->z));
        CHECK_EQ(gi(m, 0, "sit"), sp->impact_tick);
    }
    /* velocities: the displacement over the last tick; controls */
    GotaCommand go = {GOTA_CMD_ATTACK_MOVE, 0, 0, 0, 0, 0};
    for (int s = 1; s < 10; s++) gota_match_command(m, s, &go, NULL);
    gota_match_step(m, 200, &ran);
    static int32_t before_x[GOTA_MAX_UNITS], before_z[GOTA_MAX_UNITS], before_id[GOTA_MAX_UNITS];
    for (int i = 0; i < m->unit_n; i++) {
        before_x[i] = m->unit[i].x;
        before_z[i] = m->unit[i].z;
        before_id[i] = m->unit[i].id;
    }
    gota_match_step(m, 1, &ran);
    int stunned = -1;
    for (int i = 0; i < m->unit_n && stunned < 0; i++)
        if (m->unit[i].kind == GOTA_KIND_CREEP && m->unit[i].alive && m->unit[i].team == 0) stunned = i;
    if (stunned >= 0) m->st[stunned].stun = 17;
    m->hero[6].silence = 40;
    static int32_t after_x[GOTA_MAX_UNITS], after_z[GOTA_MAX_UNITS];
    for (int i = 0; i < m->unit_n; i++) {
        after_x[i] = m->unit[i].x;
        after_z[i] = m->unit[i].z;
    }
    gota_match_step(m, 1, &ran);
    int32_t len, n = gi(m, 0, "n"), moving = 0;
    const BasicValue *ids = basic_vm_array(m->script[0], "ids", &len), *vx = basic_vm_array(m->script[0], "vx", &len);
    const BasicValue *vy = basic_vm_array(m->script[0], "vy", &len), *stun = basic_vm_array(m->script[0], "stun", &len);
    const BasicValue *sil = basic_vm_array(m->script[0], "sil", &len);
    for (int i = 0; i < n && i < 256; i++) {
        int slot = unit_slot_of_id(m, ids[i].v);
        if (slot < 0) continue;
        if (before_id[slot] == m->unit[slot].id && m->unit[slot].alive) {
            int32_t dx = after_x[slot] - before_x[slot], dz = after_z[slot] - before_z[slot];
            if (dx > GOTA_TILE || dx < -GOTA_TILE || dz > GOTA_TILE || dz < -GOTA_TILE) dx = dz = 0;
            CHECK_EQ(vx[i].v, dx);
            CHECK_EQ(vy[i].v, dz);
            moving += dx != 0 || dz != 0;
        }
        if (slot == stunned) CHECK_EQ(stun[i].v, 17);
        if (slot == m->hero_slot[6]) CHECK_EQ(sil[i].v, m->hero[6].silence + 1000 * m->hero[6].root);
    }
    CHECK(moving > 5);
    /* the portal scroll: back from the field to an allied tower's range */
    const MapBuilding *tw = &m->map->building[MAP_IDX_TOWER(1, 0, 0)];
    ((BasicValue *)basic_vm_global(m->script[0], "px"))->v = tile_of(0, tw->x);
    ((BasicValue *)basic_vm_global(m->script[0], "py"))->v = tile_of(0, tw->z) + 2;
    ((BasicValue *)basic_vm_global(m->script[0], "doportal"))->v = 1;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(gi(m, 0, "okscroll"), 1);
    CHECK_EQ(gi(m, 0, "okportal"), 1);
    CHECK_EQ(gi(m, 0, "eportal"), 0);
    CHECK(m->hero[0].channel > 0);
    gota_match_step(m, 1, &ran);
    CHECK_EQ(gi(m, 0, "chan"), m->hero[0].channel);   /* the channel counts down before the bot phase */
    /* death and buyback */
    int hs = m->hero_slot[0];
    m->unit[hs].hp = 0;
    m->unit[hs].alive = 0;
    hero_died(m, 0, -1);
    m->hero[0].gold = 1000;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(gi(m, 0, "dth"), 1);
    CHECK(gi(m, 0, "rsp") > 0);
    CHECK_EQ(gi(m, 0, "bbp"), m->hero[0].buyback_price);
    CHECK(gi(m, 0, "bbp") > 0);
    ((BasicValue *)basic_vm_global(m->script[0], "dobuyback"))->v = 1;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(gi(m, 0, "okbuyback"), 1);
    CHECK_EQ(gi(m, 0, "ebuyback"), 0);
    CHECK_EQ(m->unit[hs].alive, 1);
    gota_match_free(m);
}

/* The idioms public GotA players rely on (our own code, written in their
 * style): subs with parameters called without `call`, `next name`, `exit for`
 * inside nested blocks, `elseif`, `end` inside an if, decimals from `/`,
 * comparisons stored as -1/0 flags, host constants in arithmetic. Plays 300
 * ticks on every seat without an error. */
static void test_public_idioms(void)
{
    const char *src =
        "dim owned(22)\ndim castRange(3)\n\n"
        "sub chooseHero()\n  if draftTurnId <> selfId then\n    exit sub\n  end if\n  bestClass = -1\n"
        "  for candidate = 0 to 9\n    if heroAvailable(candidate) then\n      role = heroRole(candidate)\n"
        "      score = 100\n      for player = 0 to draftPlayerCount() - 1\n"
        "        if draftPlayerTeam(player) = selfTeam then\n          picked = draftedClass(draftPlayerId(player))\n"
        "          if picked >= 0 then\n            if heroRole(picked) = role then\n              score = score - 100\n"
        "            end if\n          end if\n        end if\n      next player\n"
        "      if score > bestScore or bestClass < 0 then\n        bestScore = score\n        bestClass = candidate\n"
        "      end if\n    end if\n  next candidate\n  if bestClass >= 0 then\n    accepted = draftHero(bestClass)\n"
        "    actionError = lastActionError()\n  end if\nend sub\n\n"
        "sub readObject(index)\n  kind = objectKind(index)\n  if objectReturning(index) or objectAlive(index) = 0 then\n"
        "    exit sub\n  end if\n  if kind = 1 then\n    godSeen = 1\n  elseif kind = 2 then\n    heroesSeen = heroesSeen + 1\n"
        "  elseif kind = 3 then\n    creepsSeen = creepsSeen + 1\n  end if\nend sub\n\n"
        "if drafting then\n  chooseHero()\n  end\nend if\n"
        "if selfHp <= 0 then\n  price = buybackPrice()\n  if price > 0 and selfGold >= price then\n    accepted = buyback()\n"
        "  end if\n  end\nend if\n"
        "if worldTick < nextThink then\n  end\nend if\nnextThink = worldTick + 6\n"
        "side = 1 - selfTeam * 2\noriginX = selfTeam * (mapWidth - 1)\nmyX = originX + side * selfX\n"
        "attackRange = (selfAttackRange \\ 100) / (worldScale \\ 100)\ncastRange(1) = 7 / 3\n"
        "layer = RedFortLayer\nworldLayer = layer + selfTeam * (RedFortLayer + BlueFortLayer - 2 * layer)\n"
        "heroesSeen = 0: creepsSeen = 0\n"
        "for scan = 0 to 47\n  if scan < objectCount() then\n    readObject(scan)\n  end if\nnext scan\n"
        "consume = creepsSeen > 2 and worldTick - hurtTick > tickRate\n"
        "for id = 0 to 22\n  owned(id) = 0\nnext id\n"
        "for itemSlot = 0 to 5\n  id = itemId(itemSlot)\n  if id <> 0 then owned(id) = itemCount(itemSlot)\nnext itemSlot\n"
        "if canShop() and owned(1) < 2 then ok = buyItem(1)\n"
        "if canLevelAbility(0) then\n  levelAbility(0)\nelseif canLevelAbility(1) then\n  levelAbility(1)\nend if\n"
        "for offsetY = -1 to 1\n  for offsetX = -1 to 1\n    if terrainWalkable(selfX + offsetX, selfY + offsetY) then\n"
        "      goalX = selfX + offsetX\n      exit for\n    end if\n  next offsetX\nnext offsetY\n"
        "accepted = attackMove(mapWidth \\ 2, mapHeight \\ 2)\n";
    const int all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
    GotaMatch *m = scripted_match(8, all, 10, src, NULL);
    int32_t ran;
    gota_match_step(m, 300, &ran);
    for (int s = 0; s < 10; s++) {
        GotaScriptStatus st;
        gota_match_script_status(m, s, &st);
        if (st.disabled) fprintf(stderr, "seat %d: %s\n", s, st.error);
        CHECK_EQ(st.disabled, 0);
        CHECK_EQ(gi(m, s, "accepted") == 1 || gi(m, s, "accepted") == 0, 1);
        CHECK(gi(m, s, "godseen") == 0);   /* a god is not 'alive' in the list before it is exposed */
        CHECK(gi(m, s, "heroesseen") >= 1);
    }
    /* the draft idiom picked distinct roles per team */
    for (int team = 0; team < 2; team++) {
        int roles = 0;
        for (int s = team * 5; s < team * 5 + 5; s++) roles |= 1 << HERO_CLASS[m->hero[s].cls].role;
        CHECK_EQ(roles, 31);
    }
    {
        int32_t len;
        const BasicValue *cr = basic_vm_array(m->script[0], "castrange", &len);
        CHECK(cr && cr[1].fx == 1 && cr[1].v == 152917);
    }
    gota_match_free(m);
}

static void test_host_commands(void)
{
    const char *src =
        "if worldTick = 1 then\n"
        "  g0 = selfGold\n"
        "  buy = buyItem(1): e1 = lastActionError(): g1 = selfGold\n"
        "  bad = buyItem(99): e2 = lastActionError()\n"
        "  lvl = levelAbility(3): e3 = lastActionError()\n"
        "  lq = levelAbility(0): e4 = lastActionError()\n"
        "  cast = castPoint(1, selfX + 3, selfY): e5 = lastActionError()\n"
        "  use = useItem(5): e6 = lastActionError()\n"
        "  full = useItem(0): e7 = lastActionError()\n"
        "  att = attackTarget(999999): e8 = lastActionError()\n"
        "  dr = draftHero(3): e9 = lastActionError()\n"
        "  bb = buyback(): e10 = lastActionError()\n"
        "  walk = walkTo(60.5, 60): e11 = lastActionError()\n"
        "  far = walkTo(5000, 5000): e12 = lastActionError()\n"
        "  am = attackMove(57, 58): e13 = lastActionError()\n"
        "  none = lastActionError()\n"
        "end if\n";
    const int seats[] = {1};
    GotaMatch *m = scripted_match(3, seats, 1, src, NULL);
    int gold0 = m->hero[1].gold;
    int64_t cmds0 = m->hero[1].stats.commands;
    int32_t ran;
    gota_match_step(m, 1, &ran);
    CHECK_EQ(m->script[1]->disabled, 0);
    CHECK_EQ(gi(m, 1, "g0"), gold0);
    CHECK_EQ(gi(m, 1, "buy"), 1);
    CHECK_EQ(gi(m, 1, "e1"), 0);
    CHECK_EQ(gi(m, 1, "g1"), gold0);                     /* sampled at the decision's start */
    CHECK_EQ(m->hero[1].gold, gold0 - ITEM[1].gold);      /* but spent */
    CHECK_EQ(gi(m, 1, "bad"), 0);
    CHECK_EQ(gi(m, 1, "e2"), 3);                         /* ActionUnknownItem */
    CHECK_EQ(gi(m, 1, "lvl"), 0);
    CHECK_EQ(gi(m, 1, "e3"), 27);                        /* ActionHeroLevelRequired */
    CHECK_EQ(gi(m, 1, "lq"), 1);
    CHECK_EQ(gi(m, 1, "e4"), 0);
    CHECK_EQ(m->hero[1].rank[0], 1);
    CHECK_EQ(gi(m, 1, "cast"), 0);
    CHECK_EQ(gi(m, 1, "e5"), 24);                        /* ActionAbilityLocked */
    CHECK_EQ(gi(m, 1, "use"), 0);
    CHECK_EQ(gi(m, 1, "e6"), 8);                         /* ActionEmptySlot */
    CHECK_EQ(gi(m, 1, "full"), 0);
    CHECK(gi(m, 1, "e7") == 10 || gi(m, 1, "e7") == 16);   /* full health (or the potion's cooldown) */
    CHECK_EQ(gi(m, 1, "att"), 0);
    CHECK_EQ(gi(m, 1, "e8"), 12);                        /* ActionTargetUnavailable */
    CHECK_EQ(gi(m, 1, "dr"), 0);
    CHECK_EQ(gi(m, 1, "e9"), 31);                        /* ActionNotDrafting */
    CHECK_EQ(gi(m, 1, "bb"), 0);
    CHECK_EQ(gi(m, 1, "e10"), 28);                       /* ActionNotDead */
    CHECK_EQ(gi(m, 1, "walk"), 1);
    CHECK_EQ(gi(m, 1, "e11"), 0);
    CHECK_EQ(gi(m, 1, "far"), 0);
    CHECK_EQ(gi(m, 1, "e12"), 15);                       /* ActionInvalidPoint */
    CHECK_EQ(gi(m, 1, "am"), 1);
    CHECK_EQ(gi(m, 1, "none"), 0);
    CHECK_EQ(m->hero[1].order, ORDER_ATTACK_MOVE);
    CHECK_EQ(m->hero[1].order_x, map_tile_centre(57));
    CHECK_EQ(m->hero[1].order_z, map_tile_centre(58));
    /* every command went through match_command and its stats */
    CHECK(m->hero[1].stats.commands >= cmds0 + 12);
    /* a decimal destination: 60.5 is half a tile past the centre of tile 60 */
    gota_match_free(m);

    m = scripted_match(3, seats, 1, "if worldTick = 1 then ok = walkTo(60.5, 60.25)\n", NULL);
    gota_match_step(m, 1, &ran);
    CHECK_EQ(gi(m, 1, "ok"), 1);
    CHECK_EQ(m->hero[1].order_x, map_tile_centre(60) + GOTA_TILE / 2);
    CHECK_EQ(m->hero[1].order_z, map_tile_centre(60) + GOTA_TILE / 4);
    gota_match_free(m);
}

/* Each Action* name, spelled as the docs spell it, is a script constant of its code. */
static void test_action_error_names(void)
{
    CHECK(strcmp(gota_script_action_error_name(0), "NoActionError") == 0);
    CHECK(strcmp(gota_script_action_error_name(24), "ActionAbilityLocked") == 0);
    CHECK(gota_script_action_error_name(-1) == NULL);
    CHECK(gota_script_action_error_name(GOTA_SCRIPT_ACTION_ERRORS) == NULL);
    for (int32_t code = 0; code < GOTA_SCRIPT_ACTION_ERRORS; code++) {
        char src[80];
        snprintf(src, sizeof src, "v = %s\n", gota_script_action_error_name(code));
        int rc = -1;
        BasicVM *vm = run(src, &rc);
        CHECK_EQ(rc, BASIC_OK);
        CHECK_INT(vm, "v", code);
        basic_vm_free(vm);
    }
}

/* The status counts every command a script issues and why the rules refused it. */
static void test_command_counters(void)
{
    /* W is never learned, so every cast is refused; the walker's orders are all accepted;
     * the drafter asks for a hero that does not exist at each of its 20 draft decisions */
    static const char *const src[] = {
        "ok = castPoint(1, selfX + 3, selfY)\n",
        "ok = walkTo(58, 58)\n",
        "if drafting then\n  ok = draftHero(-1)\nelse\n  ok = walkTo(58, 58)\nend if\n",
    };
    const int seat[] = {1, 6, 3};
    GotaConfig cfg;
    gota_config_default(&cfg);
    int err = 0;
    GotaMatch *m = gota_match_new(&cfg, &err);
    CHECK(m != NULL);
    for (int k = 0; k < 3; k++) {
        GotaBasicProgram *p = compile_ok(src[k]);
        CHECK_EQ(gota_match_set_script(m, seat[k], p), GOTA_OK);
        gota_basic_free(p);
    }
    for (int round = 0; round < 2; round++) {   /* the counters start afresh at each reset */
        CHECK_EQ(gota_match_reset(m, 8), GOTA_OK);
        GotaScriptStatus cast, walk, draft;
        gota_match_script_status(m, seat[0], &cast);
        gota_match_script_status(m, seat[2], &draft);
        CHECK_EQ(cast.commands, 0);
        CHECK_EQ(draft.commands, 20);
        CHECK_EQ(draft.refused, 20);
        CHECK_EQ(draft.refused_by[33], 20);          /* ActionUnknownHero */
        int32_t ran;
        int32_t ticks = round == 0 ? 30 : 5;
        CHECK_EQ(gota_match_step(m, ticks, &ran), GOTA_OK);
        CHECK_EQ(gota_match_script_status(m, seat[0], &cast), GOTA_OK);
        CHECK_EQ(gota_match_script_status(m, seat[1], &walk), GOTA_OK);
        CHECK_EQ(gota_match_script_status(m, seat[2], &draft), GOTA_OK);
        CHECK_EQ(cast.disabled, 0);
        CHECK_EQ(cast.commands, ticks);
        CHECK_EQ(cast.refused, ticks);
        CHECK_EQ(cast.refused_by[24], ticks);        /* ActionAbilityLocked */
        CHECK_EQ(cast.refused_by[0], 0);
        CHECK_EQ(walk.commands, ticks);
        CHECK_EQ(walk.refused, 0);
        CHECK_EQ(draft.commands, 20 + ticks);
        CHECK_EQ(draft.refused, 20);
        int64_t by_reason = 0;
        for (int r = 0; r < GOTA_SCRIPT_ACTION_ERRORS; r++) by_reason += cast.refused_by[r] + walk.refused_by[r];
        CHECK_EQ(by_reason, ticks);
    }
    gota_match_free(m);
}

static void test_host_errors_disable_the_seat(void)
{
    /* a fractional id is a BASIC error: the seat idles, the match goes on */
    const int seats[] = {4, 6};
    GotaMatch *m = scripted_match(2, seats, 2, "if drafting then end\nn = n + 1\nif n = 3 then x = objectId(1.5)\nw = walkTo(58, 58)\n", NULL);
    int32_t ran;
    gota_match_step(m, 50, &ran);
    CHECK_EQ(ran, 50);
    for (int k = 0; k < 2; k++) {
        int seat = seats[k];
        GotaScriptStatus st;
        CHECK_EQ(gota_match_script_status(m, seat, &st), GOTA_OK);
        CHECK_EQ(st.disabled, 1);
        CHECK_EQ(st.error_code, BASIC_ERR_HOST);
        CHECK(strstr(st.error, "t.bas:3:19: runtime error: objectid: argument 1 is 1.50000") != NULL);
        CHECK_EQ(st.decisions, 3);   /* no draftHero: not run in the draft; 3 in battle */
        GotaSeatStats ss;
        gota_match_seat_stats(m, seat, &ss);
        CHECK_EQ(ss.script_errors, 1);
        char log[1024];
        int32_t len = 0;
        CHECK_EQ(gota_match_script_log(m, seat, log, sizeof log - 1, &len), GOTA_OK);
        log[len] = 0;
        CHECK(strstr(log, "disabled for the rest of the match") != NULL);
        CHECK_EQ(gi(m, seat, "n"), 3);
    }
    GotaSeatStats ss;
    gota_match_seat_stats(m, 0, &ss);
    CHECK_EQ(ss.script_errors, 0);
    gota_match_free(m);
    /* an error in the draft counts too; the seat gets the drawn class and idles */
    m = scripted_match(2, seats, 2, "if drafting then ok = draftHero(-1)\nx = 1 \\ (worldTick - worldTick)\n", NULL);
    gota_match_seat_stats(m, 4, &ss);
    CHECK_EQ(ss.script_errors, 1);
    CHECK_EQ(m->script[4]->disabled, 1);
    CHECK_EQ(m->script[4]->decisions, 1);
    gota_match_step(m, 10, &ran);
    CHECK_EQ(m->script[4]->decisions, 1);
    gota_match_free(m);

    /* endless loops, deep recursion and print floods on every seat: the match runs to its end */
    static const char *const hostile[] = {
        "while 1\nwend\n",
        "sub f()\n  f()\nend sub\nf()\n",
        "for i = 1 to 100000\n  x = objectCount() + objectX(i mod 10) + terrainKind(i mod 116, 3)\nnext\n",
        "do\n  print \"flood flood flood flood flood flood\"\nloop\n",
        "dim a(4095)\nfor i = 0 to 4095: a(i) = walkTo(i mod 100, 3): next\n",
    };
    for (size_t k = 0; k < sizeof hostile / sizeof hostile[0]; k++) {
        const int all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        GotaConfig cfg;
        gota_config_default(&cfg);
        cfg.max_ticks = 600;
        int err;
        GotaMatch *mm = gota_match_new(&cfg, &err);
        GotaBasicProgram *p = compile_ok(hostile[k]);
        for (int s = 0; s < 10; s++) gota_match_set_script(mm, all[s], p);
        gota_basic_free(p);
        gota_match_reset(mm, 11);
        CHECK_EQ(gota_match_step(mm, 1000, &ran), GOTA_OK);
        CHECK_EQ(ran, 600);
        for (int s = 0; s < 10; s++) {
            GotaScriptStatus st;
            gota_match_script_status(mm, s, &st);
            CHECK_EQ(st.disabled, 1);
            CHECK(st.error_code == BASIC_ERR_INSTRUCTIONS || st.error_code == BASIC_ERR_DEPTH ||
                  st.error_code == BASIC_ERR_PRINT || st.error_code == BASIC_ERR_WORK);
        }
        gota_match_free(mm);
    }
}

static void test_draft_and_determinism(void)
{
    /* a script drafts its hero at its turn */
    const char *pick = "if drafting then\n  if draftTurnId = selfId then\n    for c = Berserker to 0 step -1\n"
                       "      if heroAvailable(c) then\n        want = c: ok = draftHero(c): e = lastActionError()\n"
                       "        exit for\n      end if\n    next\n  end if\n  end\nend if\n";
    const int seats[] = {3};
    GotaMatch *m = scripted_match(1, seats, 1, pick, NULL);
    CHECK_EQ(m->hero[3].cls, gi(m, 3, "want"));
    CHECK_EQ(gi(m, 3, "ok"), 1);
    CHECK_EQ(gi(m, 3, "e"), 0);
    CHECK_EQ(m->script[3]->decisions, 1);
    for (int s = 0; s < 10; s++) CHECK(s == 3 || m->hero[s].cls < gi(m, 3, "want") || m->hero[s].cls != gi(m, 3, "want"));
    gota_match_free(m);
    /* two seats want the same class: the second one is refused and gets a drawn class */
    const int both[] = {0, 5};
    m = scripted_match(1, both, 2, "if drafting then\n  ok = draftHero(2): e = lastActionError()\nend if\n", NULL);
    int got2 = (m->hero[0].cls == 2) + (m->hero[5].cls == 2);
    CHECK_EQ(got2, 1);
    int refused = m->hero[0].cls == 2 ? 5 : 0;
    CHECK_EQ(gi(m, refused, "e"), 34);   /* ActionHeroTaken */
    /* the draft's role rules still leave ten distinct classes */
    for (int a = 0; a < 10; a++)
        for (int b = a + 1; b < 10; b++) CHECK(m->hero[a].cls != m->hero[b].cls);
    gota_match_free(m);
    /* a script that never picks gets the seeded draw; the stream stays aligned */
    GotaConfig cfg;
    gota_config_default(&cfg);
    int err;
    GotaMatch *plain = gota_match_new(&cfg, &err);
    m = scripted_match(cfg.seed, seats, 1, "x = 1\n", NULL);
    for (int s = 0; s < 10; s++) CHECK_EQ(m->hero[s].cls, plain->hero[s].cls);
    gota_match_free(m);
    gota_match_free(plain);

    /* same seed and scripts: the same hashes; the variables are folded */
    const char *src = "if drafting then end\nn = n + 1\nif n mod 7 = 0 then w = attackMove(58 + (n mod 20), 40)\n";
    const int six[] = {0, 1, 2, 5, 6, 7};
    GotaMatch *a = scripted_match(4, six, 6, src, NULL), *b = scripted_match(4, six, 6, src, NULL);
    int32_t ran;
    gota_match_step(a, 800, &ran);
    gota_match_step(b, 800, &ran);
    uint64_t ha, hb;
    gota_match_hash(a, &ha);
    gota_match_hash(b, &hb);
    CHECK(ha == hb);
    ((BasicValue *)basic_vm_global(b->script[0], "n"))->v += 1000;
    gota_match_hash(b, &hb);
    CHECK(ha != hb);
    /* a reset restarts the VMs */
    gota_match_reset(a, 4);
    CHECK_EQ(gi(a, 0, "n"), 0);
    gota_match_free(a);
    gota_match_free(b);

    /* detaching a script makes the seat external again */
    m = scripted_match(1, seats, 1, "x = 1\n", NULL);
    CHECK_EQ(m->cfg.bot[3], GOTA_BOT_SCRIPT);
    /* the seat's program and its source, as replay files record them */
    GotaBasicProgram *held = NULL, *got = NULL;
    CHECK_EQ(gota_match_script_program(m, 3, &held), GOTA_OK);
    CHECK(held != NULL && held == (GotaBasicProgram *)m->script[3]->prog);
    char text[16];
    int32_t len = 0;
    CHECK_EQ(gota_basic_source(held, text, 3, &len), GOTA_ERR_BUFFER);
    CHECK_EQ(len, 6);
    CHECK_EQ(gota_match_script_program(m, 4, &got), GOTA_OK);   /* no script there */
    CHECK(got == NULL);
    CHECK_EQ(gota_match_script_program(m, 10, &got), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_set_script(m, 3, NULL), GOTA_OK);
    CHECK_EQ(m->cfg.bot[3], GOTA_BOT_EXTERNAL);
    CHECK_EQ(gota_match_set_script(m, 10, NULL), GOTA_ERR_INDEX);
    CHECK_EQ(gota_match_set_script(NULL, 0, NULL), GOTA_ERR_NULL);
    gota_match_free(m);
    /* the reference taken above outlives the match */
    CHECK_EQ(gota_basic_source(held, text, (int32_t)sizeof text, &len), GOTA_OK);
    CHECK_EQ(len, 6);
    CHECK(memcmp(text, "x = 1\n", 6) == 0);
    gota_basic_free(held);
    CHECK_EQ(gota_match_script_program(NULL, 0, &got), GOTA_ERR_NULL);
    CHECK_EQ(gota_basic_source(NULL, text, 1, &len), GOTA_ERR_NULL);
}

/* One program shared by many seats and lanes (refcounts, threads). */
/* ---- the original's dialect and newest host calls (its public scripts) ---------------- */
/* Compile errors come in source order: whichever pass finds them. */
static void test_error_order(void)
{
    /* an error in the main code before a sub's error, and the reverse */
    compile_fails("x = foo(1)\nsub f()\n  y = bar(2)\nend sub\n", "t.bas:1:5: unknown array or function 'foo'");
    compile_fails("sub f()\n  y = bar(2)\nend sub\nx = foo(1)\n", "t.bas:2:7: unknown array or function 'bar'");
    /* a lexical error after a syntax error, and before one */
    compile_fails("x = (1\ny$ = 1\n", "t.bas:1:7: expected ')'");
    compile_fails("y$ = 1\nx = (1\n", "t.bas:1:1: 'y$': string variables");
    compile_fails("sub f()\n  x = 1 ? 2\nend sub\nz = (\n", "t.bas:2:9: unexpected character '?'");
    /* a bad dim late in the file does not hide an earlier statement error */
    compile_fails("x = 1 +\ndim a(n)\n", "t.bas:1:8: expected a value");
    compile_fails("x = a(1)\ndim a(n)\n", "t.bas:2:7: expected an integer upper bound");
    /* a sub with a bad header: its calls are not reported unknown */
    compile_fails("f(1, 2)\nsub f(a, 3)\nend sub\n", "t.bas:2:10: expected a parameter name");
    compile_fails("x = self.hp\n", "t.bas:1:5: 'self.hp': record fields are not supported");
}

static void test_original_dialect(void)
{
    /* words reserved elsewhere are names here, as in the original's dialect */
    int rc;
    BasicVM *vm = run("restore = 5: data = 2: read = 3: input = 4: type = 1: as = 7: function = 8: def = 9\n"
                      "dim data2(3)\ntotal = restore + data + read + input + type + as + function + def\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "total", 39);
    basic_vm_free(vm);
    vm = run("dim data(24)\ndata(0) = 7\nx = data(0) * 2\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_INT(vm, "x", 14);
    basic_vm_free(vm);
    compile_fails("read x\n", "'read' is not supported in GotA BASIC: a DATA table is a named array");
    compile_fails("restore\n", "'restore' is not supported");
    compile_fails("input x\n", "'input' is not supported");
    compile_fails("type Point\n  x as fixed\nend type\n", "records ('type ... end type') are not supported");
    compile_fails("function f(x)\nend function\n", "'function' is not supported in GotA BASIC: write a sub");
    compile_fails("dim a(3) as Point\n", "'dim ... as' (records) is not supported");

    /* DATA tables: typed, continued lines, signed values, used before their line */
    vm = run("sub pick(i)\n  got = weights(i)\nend sub\n"
             "DATA weights AS fixed32 = _\n  -0.5, 1, _   ' a comment after the continuation\n  2.25\n"
             "DATA counts AS int32 = -2147483647, +12, 3.0\n"
             "DATA mixed = 1, -0.25, 7\n"
             "pick(1)\nw0 = weights(0): n0 = counts(0): n1 = counts(1): n2 = counts(2)\n"
             "m0 = mixed(0): m1 = mixed(1)\n", &rc);
    CHECK_EQ(rc, BASIC_OK);
    CHECK_FX(vm, "got", 65536);
    CHECK_FX(vm, "w0", -32768);
    CHECK_INT(vm, "n0", -2147483647);
    CHECK_INT(vm, "n1", 12);
    CHECK_INT(vm, "n2", 3);
    CHECK_INT(vm, "m0", 1);
    CHECK_FX(vm, "m1", -16384);
    {
        int32_t len = 0;
        const BasicValue *w = basic_vm_array(vm, "weights", &len);
        CHECK_EQ(len, 3);
        CHECK(w && w[2].fx == 1 && w[2].v == 147456);
    }
    /* the values come back at every reset; they count in the array limits */
    basic_vm_reset(vm);
    CHECK_INT(vm, "got", 0);
    {
        const BasicValue *w = basic_vm_array(vm, "weights", NULL);
        CHECK(w && w[0].fx == 1 && w[0].v == -32768);
    }
    basic_vm_free(vm);
    compile_fails("DATA w = 1, 2\nw(0) = 7\n", "cannot assign to 'w': it is a read-only DATA table");
    compile_fails("DATA w AS int32 = 0.5\n", "DATA w is int32: 0.5 is not a whole number");
    compile_fails("DATA w AS fixed32 = 100000\n", "DATA w is fixed32: 100000 does not fit a decimal");
    compile_fails("DATA w AS float32 = 1\n", "unknown DATA type 'float32'");
    compile_fails("DATA w = 1 + 2\n", "t.bas:1:12: expected ',' and another value");
    compile_fails("DATA w = x\n", "expected a number (DATA values are number literals)");
    compile_fails("DATA w =\n", "expected a number");
    compile_fails("DATA w = 1,\n", "expected a number");
    compile_fails("DATA w = 1\nDATA w = 2\n", "'w' is already an array");
    compile_fails("if 1 then\n  DATA w = 1\nend if\n", "DATA tables are allowed only at the top level");
    compile_fails("DATA w x\n", "a DATA table is 'DATA name [AS int32|fixed32] = value, value, ...'");
    compile_fails("sub f()\n  DATA w = 1\nend sub\n", "DATA tables are allowed only at the top level");
    compile_fails("dim a(4000)\nDATA w = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, "
                  "22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, "
                  "47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, "
                  "72, 73, 74, 75, 76, 77, 78, 79, 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95, 96\n",
                  "arrays too large");
    /* a `_` inside a line is a plain name */
    vm = run("_ = 3\nx = _ + 1\n", &rc);
    CHECK_INT(vm, "x", 4);
    basic_vm_free(vm);

    /* floor, sqrt, exp (host functions: they run in a match) */
    {
        const int one[] = {1};
        GotaMatch *m = scripted_match(
            1, one, 1,
            "a = floor(2.75): b = floor(-2.25): c = floor(7): d = floor(-0.00002)\n"
            "e = sqrt(2.0): f = sqrt(-1): g = sqrt(9)\n"
            "h = exp(0): i = exp(1): j = exp(-1): k = exp(10): l = exp(2.5): o = exp(-11.5): q = exp(-100)\n"
            "r = exp(10.3912353515625): s = exp(-0.0000152587890625): t = exp(0.693145751953125)\n",
            NULL);
        int32_t ran;
        CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_OK);
        vm = m->script[1];
        CHECK_EQ(vm->disabled, 0);
        CHECK_INT(vm, "a", 2);
        CHECK_INT(vm, "b", -3);
        CHECK_INT(vm, "c", 7);
        CHECK_INT(vm, "d", -1);
        CHECK_FX(vm, "e", 92681);
        CHECK_FX(vm, "f", 0);
        CHECK_FX(vm, "g", 3 * 65536);
        CHECK_FX(vm, "h", 65536);
        CHECK_FX(vm, "i", 178145);
        CHECK_FX(vm, "j", 24109);
        CHECK_FX(vm, "k", 1443526462);
        CHECK_FX(vm, "l", 798392);
        CHECK_FX(vm, "o", 1);
        CHECK_FX(vm, "q", 0);
        CHECK_FX(vm, "r", 2134696333);
        CHECK_FX(vm, "s", 65535);
        CHECK_FX(vm, "t", 131072);
        gota_match_free(m);
        /* out of range: the script stops with the reason */
        static const char *const bad[] = {"x = exp(10.5)\n", "x = sqrt(40000)\n"};
        static const char *const why[] = {"exp(10.50000) is outside the decimals", "sqrt: 40000 does not fit a decimal"};
        for (int k = 0; k < 2; k++) {
            m = scripted_match(1, one, 1, bad[k], NULL);
            CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_OK);
            CHECK_EQ(m->script[1]->disabled, 1);
            CHECK(strstr(m->script[1]->error, why[k]) != NULL);
            gota_match_free(m);
        }
    }

    /* the original's neural-network calls are refused by name, and so are their results */
    compile_fails("res = nn_richard(1, 2, 3)\n", "t.bas:1:7: 'nn_richard' is a neural-network call of the original");
    compile_fails("x = andre_nn(1)\n", "'andre_nn' is a neural-network call");
    compile_fails("gota_act()\n", "'gota_act' is a neural-network call");
    compile_fails("sub choose()\n  best = result(0)\nend sub\nresult = mine_nn(1)\n",
                  "t.bas:2:10: 'result' is indexed like an array, but it holds the result of mine_nn (line 4)");
}

static void test_original_host(void)
{
    /* a script that never calls draftHero does not run in the draft: at its
     * first decision its hero stands in the spawn room */
    {
        const int all[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        GotaMatch *m = scripted_match(3, all, 10, "n = n + 1\nf = selfHp * 10 / selfMaxHp\nif n = 1 then first = worldTick\n",
                                      NULL);
        int32_t ran;
        CHECK_EQ(gota_match_step(m, 5, &ran), GOTA_OK);
        for (int s = 0; s < 10; s++) {
            CHECK_EQ(m->script[s]->disabled, 0);
            CHECK_EQ(m->script[s]->decisions, 5);
            CHECK_EQ(gi(m, s, "first"), 1);   /* the first battle decision */
        }
        gota_match_free(m);
    }
    /* the structured queries against the simulator's state */
    const char *src =
        "dim ox(63), oy(63), om(63), oa(63), ofx(63), ofy(63), oid(63)\n"
        "if drafting then ok = draftHero(Ranger - Ranger + Lich): end\n"
        "if h = 0 then h = blobCreate(): h2 = blobCreate()\n"
        "cleared = blobClear(h)\n"
        "for k = 0 to 19: s(k) = selfInfo(k): next k\n"
        "for k = 0 to 16: mi(k) = matchInfo(k): next k\n"
        "n = objectCount(): ts = 0: ta = 0: top = n - 1: if top > 63 then top = 63\n"
        "for i = 0 to top\n"
        "  oid(i) = objectId(i): ox(i) = objectInfo(i, 0): oy(i) = objectInfo(i, 1): om(i) = objectInfo(i, 2)\n"
        "  oa(i) = objectInfo(i, 3): ofx(i) = objectInfo(i, 4): ofy(i) = objectInfo(i, 5)\n"
        "  if objectKind(i) = 4 and objectTeam(i) = selfTeam then ts = ts + 1: ta = ta + objectAlive(i)\n"
        "next i\n"
        "obad = objectInfo(n, 0) + objectInfo(0, 8)\n"
        "for a = 0 to 3: ar(a) = abilityInfo(a, 0): ac(a) = abilityInfo(a, 1): ad(a) = abilityInfo(a, 2): "
        "ak(a) = abilityInfo(a, 3): next a\n"
        "abad = abilityInfo(4, 0)\n"
        "sc = spellCount(): sbad = spellInfo(sc, 0)\n"
        "if sc > 0 then sx0 = spellInfo(0, 0): sy0 = spellInfo(0, 1): sh0 = spellInfo(0, 2): ss0 = spellInfo(0, 3)\n";
    char full[4096];
    snprintf(full, sizeof full, "dim s(19), mi(16), ar(3), ac(3), ad(3), ak(3)\n%s", src);
    const int seats[] = {2, 7};
    GotaMatch *m = scripted_match(5, seats, 2, full, NULL);
    CHECK_EQ(m->hero[2].cls == 7 || m->hero[7].cls == 7, 1);   /* one of them drafted the Lich */
    int32_t ran;
    CHECK_EQ(gota_match_step(m, 30, &ran), GOTA_OK);
    for (int k = 0; k < 2; k++) {
        int seat = seats[k], team = seat / 5;
        BasicVM *vm = m->script[seat];
        CHECK_EQ(vm->disabled, 0);
        const GotaUnit *u = &m->unit[m->hero_slot[seat]];
        const HeroState *h = &m->hero[seat];
        int32_t len = 0;
        const BasicValue *sv = basic_vm_array(vm, "s", &len);
        CHECK_EQ(len, 20);
        CHECK(sv[0].fx == 1 && sv[0].v == (int32_t)(((int64_t)u->x * 65536) / GOTA_TILE));
        CHECK(sv[1].fx == 1 && sv[1].v == (int32_t)(((int64_t)u->z * 65536) / GOTA_TILE));
        CHECK_EQ(sv[2].v, h->xp);   /* level 1: all XP is into the level */
        CHECK_EQ(sv[3].v, 100);
        CHECK_EQ(sv[4].v, h->xp);
        CHECK_EQ(sv[6].v, HERO_CLASS[h->cls].role);
        CHECK_EQ(sv[9].v, h->points);
        CHECK_EQ(sv[10].v, (int32_t)economy_hero_score(m, seat));
        CHECK(sv[15].fx == 1 && sv[15].v == (int32_t)(((int64_t)u->range * 65536) / GOTA_TILE));
        CHECK(sv[16].fx == 1 && sv[16].v == (int32_t)(((int64_t)h->move_speed * 65536) / GOTA_TILE));
        CHECK(sv[17].v == (int32_t)(((int64_t)m->map->building[1 - team].x * 65536) / GOTA_TILE));
        CHECK_EQ(sv[19].v, 0);
        CHECK(sv[5].v == 0 || sv[5].v == -1);
        const BasicValue *mi = basic_vm_array(vm, "mi", &len);
        CHECK_EQ(mi[0].v, 30);
        CHECK_EQ(mi[1].v, (int32_t)m->cfg.max_ticks);
        CHECK_EQ(mi[2].v, 5);
        CHECK_EQ(mi[3].v, (int32_t)m->cfg.wave_interval - 30);
        CHECK_EQ(mi[4].v, (int32_t)m->cfg.wave_interval);
        CHECK_EQ(mi[5].v, 58);
        CHECK_EQ(mi[6].v, 116);
        CHECK_EQ(mi[7].v, 0);
        CHECK_EQ(mi[8].v, 11);    /* own towers standing: 9 lane towers and 2 god guards */
        CHECK_EQ(mi[9].v, 11);
        CHECK_EQ(mi[10].v, 6);
        CHECK_EQ(mi[11].v, 6);
        CHECK_EQ(mi[12].v, 11);
        CHECK_EQ(mi[13].v, 11);
        CHECK_EQ(mi[16].v, 0);
        CHECK_EQ(gi(m, seat, "h"), 1);
        CHECK_EQ(gi(m, seat, "h2"), 2);
        CHECK_EQ(gi(m, seat, "cleared"), 0);
        /* objects: positions as Q16.16 tiles from the centre, flags -1/0, facing a unit vector */
        const BasicValue *oid = basic_vm_array(vm, "oid", NULL), *ox = basic_vm_array(vm, "ox", NULL);
        const BasicValue *om = basic_vm_array(vm, "om", NULL), *oa = basic_vm_array(vm, "oa", NULL);
        const BasicValue *ofx = basic_vm_array(vm, "ofx", NULL), *ofy = basic_vm_array(vm, "ofy", NULL);
        int n = gi(m, seat, "n");
        CHECK(n > 10);
        for (int i = 0; i < n && i < 64; i++) {
            const GotaUnit *o = NULL;
            for (int j = 0; j < m->unit_n && !o; j++)
                if (m->unit[j].kind != GOTA_KIND_NONE && m->unit[j].id == oid[i].v) o = &m->unit[j];
            CHECK(o != NULL);
            if (!o) continue;
            CHECK_EQ(oid[i].v, o->id);
            if (o->kind == GOTA_KIND_TOWER || o->kind == GOTA_KIND_BARRACKS || o->kind == GOTA_KIND_GOD)   /* still */
                CHECK(ox[i].fx == 1 && ox[i].v == (int32_t)(((int64_t)o->x * 65536) / GOTA_TILE));
            CHECK_EQ(ox[i].fx, 1);
            CHECK_EQ(om[i].v, o->max_hp);
            int attackable = o->alive && (o->kind == GOTA_KIND_TOWER || o->kind == GOTA_KIND_BARRACKS ||
                                          o->kind == GOTA_KIND_GOD ? o->exposed : 1);
            CHECK_EQ(oa[i].v, attackable ? -1 : 0);   /* a building: standing and exposed */
            int64_t len2 = (int64_t)ofx[i].v * ofx[i].v + (int64_t)ofy[i].v * ofy[i].v;
            CHECK(len2 > (int64_t)65000 * 65000 && len2 < (int64_t)66000 * 66000);
        }
        CHECK_EQ(gi(m, seat, "obad"), 0);
        /* towers: 11 standing, the 3 outer ones exposed, so objectAlive is 1 for those only */
        CHECK_EQ(gi(m, seat, "ts"), 11);
        CHECK_EQ(gi(m, seat, "ta"), 3);
        const BasicValue *ar = basic_vm_array(vm, "ar", NULL), *ac = basic_vm_array(vm, "ac", NULL);
        const BasicValue *ak = basic_vm_array(vm, "ak", NULL);
        for (int a = 0; a < 4; a++) {
            const AbilityDef *d = &HERO_CLASS[h->cls].ability[a];
            CHECK(ar[a].fx == 1 && ar[a].v == (int32_t)(((int64_t)d->range * 65536) / GOTA_TILE));
            CHECK_EQ(ac[a].v, d->cast);
            CHECK_EQ(ak[a].v, d->effect);
        }
        CHECK_EQ(gi(m, seat, "abad"), 0);
        CHECK_EQ(gi(m, seat, "sbad"), 0);
    }
    gota_match_free(m);
    /* a blob handle is checked; too many blobs stop the script */
    static const char *const bad_blob[] = {
        "if drafting then end\nh = blobCreate()\nx = blobClear(h + 1)\n",
        "if drafting then end\nfor i = 1 to 300: h = blobCreate(): next\n",
    };
    static const char *const bad_blob_text[] = {"blobClear: 2 is not a blob of this script",
                                                "blobCreate: at most 256 blobs per script"};
    for (int k = 0; k < 2; k++) {
        const int one[] = {3};
        m = scripted_match(1, one, 1, bad_blob[k], NULL);
        CHECK_EQ(gota_match_step(m, 1, &ran), GOTA_OK);
        CHECK_EQ(m->script[3]->disabled, 1);
        if (!strstr(m->script[3]->error, bad_blob_text[k])) fprintf(stderr, "blob error: %s\n", m->script[3]->error);
        CHECK(strstr(m->script[3]->error, bad_blob_text[k]) != NULL);
        gota_match_free(m);
    }
}

static void test_batch_scripts(void)
{
    GotaConfig cfg;
    gota_config_default(&cfg);
    cfg.max_ticks = 240;
    const int32_t opp[1] = {GOTA_BOT_IDLE};
    int err = 0;
    GotaBatch *b = gota_batch_new(&cfg, 3, 4, 0, 2, opp, 1, &err);
    CHECK(b != NULL);
    GotaBasicProgram *p = compile_ok("n = n + 1\nif n = 1 then ok = attackMove(58, 58)\n");
    CHECK_EQ(gota_batch_set_opponent_script(b, 0, p), GOTA_OK);
    CHECK_EQ(gota_batch_set_opponent_script(b, 2, p), GOTA_OK);
    CHECK_EQ(gota_batch_set_learner_script(b, 1, p), GOTA_OK);
    CHECK_EQ(gota_batch_set_opponent_script(b, 3, p), GOTA_ERR_INDEX);
    gota_basic_free(p);   /* the batch keeps its own references */
    GotaBatchInfo info;
    gota_batch_info(b, &info);
    float *obs = calloc((size_t)info.agents * (size_t)info.obs_size, sizeof *obs);
    uint8_t *masks = calloc((size_t)info.agents * (size_t)info.mask_size, 1);
    uint8_t term[64], trunc[64];
    GotaLaneStats stats[3];
    int64_t signals[3 * 2 * GOTA_SIGNALS];
    GotaBatchBuffers io = {obs, (int64_t)info.agents * info.obs_size, masks, (int64_t)info.agents * info.mask_size,
                           term, 64, trunc, 64, stats, 3, signals, 3 * 2 * GOTA_SIGNALS};
    CHECK_EQ(gota_batch_reset(b, 0, &io), GOTA_OK);
    int32_t *actions = calloc((size_t)info.agents * 5, sizeof *actions);
    for (int step = 0; step < 10; step++) CHECK_EQ(gota_batch_step(b, actions, (int64_t)info.agents * 5, &io), GOTA_OK);
    for (int lane = 0; lane < 3; lane++) {
        const GotaMatch *m;
        gota_batch_lane_match(b, lane, &m);
        GotaBatchLane ln;
        gota_batch_lane(b, lane, &ln);
        int script_team = lane == 1 ? ln.learner_team : 1 - ln.learner_team;
        for (int s = 0; s < 10; s++) {
            int scripted = s / 5 == script_team;
            CHECK_EQ(m->cfg.bot[s] == GOTA_BOT_SCRIPT, scripted);
            if (scripted) CHECK(m->script[s] && m->script[s]->decisions >= 40);
        }
        if (lane != 1) CHECK_EQ(ln.opponent, GOTA_BOT_SCRIPT);
    }
    /* the lanes restart with fresh VMs after their 240 ticks */
    for (int step = 0; step < 60; step++) gota_batch_step(b, actions, (int64_t)info.agents * 5, &io);
    const GotaMatch *m0;
    gota_batch_lane_match(b, 0, &m0);
    GotaBatchLane ln0;
    gota_batch_lane(b, 0, &ln0);
    int seat = (1 - ln0.learner_team) * 5;
    CHECK(m0->script[seat] != NULL);
    CHECK_EQ(basic_vm_global(m0->script[seat], "n")->v, (int32_t)m0->script[seat]->decisions);
    /* back to a bot */
    CHECK_EQ(gota_batch_set_opponent_script(b, 0, NULL), GOTA_OK);
    gota_batch_free(b);
    free(obs);
    free(masks);
    free(actions);
}

int main(void)
{
    test_arithmetic();
    test_numeric_errors();
    test_comparisons_and_logic();
    test_control_flow();
    test_subs_and_persistence();
    test_print();
    test_compile_errors();
    test_compile_limits();
    test_runtime_limits();
    test_fuzz();
    test_host_self_and_objects();
    test_host_queries();
    test_host_more();
    test_public_idioms();
    test_host_commands();
    test_action_error_names();
    test_command_counters();
    test_host_errors_disable_the_seat();
    test_draft_and_determinism();
    test_batch_scripts();
    test_error_order();
    test_original_dialect();
    test_original_host();
    return check_report("test_basic");
}
