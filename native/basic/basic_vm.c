/*
 * basic_vm.c -- the GotA BASIC virtual machine: numbers, the bytecode
 * interpreter, limits, PRINT and the private log (basic.h; docs/basic.md).
 *
 * One decision runs the program from the top of the main routine until END,
 * STOP or its end. Globals and arrays persist between decisions (DATA tables
 * start with their values, the rest at 0, at each reset); the value
 * stack and the frames (sub parameters, loop and select temporaries) do not.
 * Limits of one decision: BASIC_DECISION_INSTRUCTIONS counted instructions
 * (charged per block by OP_METER), BASIC_DECISION_WORK work units (the
 * instructions plus every host function's cost), BASIC_MAX_DEPTH nested sub
 * calls, BASIC_PRINT_BYTES / BASIC_PRINT_EVENTS of PRINT output. Any runtime
 * error (a limit, division by zero, an index out of bounds, a fraction where
 * an integer is needed, a host function refusing its arguments) disables the
 * VM for the rest of the match; the message, with file, line and column, goes
 * to vm->error and to the log.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic.h"

/* ---- numbers --------------------------------------------------------------- */
static int32_t wrap32(int64_t v) { return (int32_t)(uint32_t)(uint64_t)v; }

/* floor(n / d) for d > 0 */
static int64_t floor_div(int64_t n, int64_t d)
{
    int64_t q = n / d;
    if ((n % d) != 0 && n < 0) q--;
    return q;
}

static int to_fx(BasicValue a, int32_t *out)
{
    if (a.fx) {
        *out = a.v;
        return BASIC_OK;
    }
    if (a.v < -32768 || a.v > 32767) return BASIC_ERR_RANGE;
    *out = a.v * BASIC_FX_ONE;
    return BASIC_OK;
}

int basic_to_int(BasicValue a, int32_t *out)
{
    if (!a.fx) {
        *out = a.v;
        return BASIC_OK;
    }
    if (a.v & 0xFFFF) return BASIC_ERR_NOT_INTEGER;
    *out = a.v / BASIC_FX_ONE;
    return BASIC_OK;
}

/* logical operands: decimals rounded to nearest, halves to even */
static int32_t to_logic(BasicValue a)
{
    if (!a.fx) return a.v;
    int32_t q = (int32_t)floor_div(a.v, BASIC_FX_ONE);
    int32_t r = a.v - q * BASIC_FX_ONE;
    if (r > 0x8000 || (r == 0x8000 && (q & 1))) q++;
    return q;
}

int basic_truth(BasicValue a) { return a.v != 0; }

static int compare(int op, BasicValue a, BasicValue b)
{
    int64_t x = a.v, y = b.v;
    if (a.fx != b.fx) {
        if (!a.fx) x *= BASIC_FX_ONE;
        else y *= BASIC_FX_ONE;
    }
    switch (op) {
    case OP_EQ: return x == y;
    case OP_NE: return x != y;
    case OP_LT: return x < y;
    case OP_LE: return x <= y;
    case OP_GT: return x > y;
    default: return x >= y;
    }
}

int basic_arith(int op, BasicValue a, BasicValue b, BasicValue *out)
{
    int32_t x, y;
    int e;
    switch (op) {
    case OP_ADD: case OP_SUB: case OP_MUL:
        if (!a.fx && !b.fx) {
            int64_t r = op == OP_ADD ? (int64_t)a.v + b.v : op == OP_SUB ? (int64_t)a.v - b.v : (int64_t)a.v * b.v;
            *out = (BasicValue){wrap32(r), 0};
            return BASIC_OK;
        }
        if ((e = to_fx(a, &x)) != BASIC_OK || (e = to_fx(b, &y)) != BASIC_OK) return e;
        if (op == OP_MUL) *out = (BasicValue){wrap32(floor_div((int64_t)x * y + 32768, 65536)), 1};
        else *out = (BasicValue){wrap32(op == OP_ADD ? (int64_t)x + y : (int64_t)x - y), 1};
        return BASIC_OK;
    case OP_DIV: {
        if ((e = to_fx(a, &x)) != BASIC_OK || (e = to_fx(b, &y)) != BASIC_OK) return e;
        if (y == 0) return BASIC_ERR_DIVZERO;
        /* round(x / y) in Q16.16, halves toward +infinity: floor((2n + y) / 2y) */
        int64_t num = 2 * (int64_t)x * 65536 + y, den = 2 * (int64_t)y;
        if (den < 0) {
            num = -num;
            den = -den;
        }
        *out = (BasicValue){wrap32(floor_div(num, den)), 1};
        return BASIC_OK;
    }
    case OP_IDIV: case OP_MOD:
        if ((e = basic_to_int(a, &x)) != BASIC_OK || (e = basic_to_int(b, &y)) != BASIC_OK) return e;
        if (y == 0) return BASIC_ERR_DIVZERO;
        if (x == INT32_MIN && y == -1) *out = (BasicValue){op == OP_IDIV ? INT32_MIN : 0, 0};
        else *out = (BasicValue){op == OP_IDIV ? x / y : x % y, 0};
        return BASIC_OK;
    case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE:
        *out = (BasicValue){compare(op, a, b) ? -1 : 0, 0};
        return BASIC_OK;
    case OP_AND: *out = (BasicValue){to_logic(a) & to_logic(b), 0}; return BASIC_OK;
    case OP_OR: *out = (BasicValue){to_logic(a) | to_logic(b), 0}; return BASIC_OK;
    case OP_XOR: *out = (BasicValue){to_logic(a) ^ to_logic(b), 0}; return BASIC_OK;
    case OP_EQV: *out = (BasicValue){~(to_logic(a) ^ to_logic(b)), 0}; return BASIC_OK;
    case OP_IMP: *out = (BasicValue){~to_logic(a) | to_logic(b), 0}; return BASIC_OK;
    default: return BASIC_ERR_INTERNAL;
    }
}

int basic_unary(int op, BasicValue a, BasicValue *out)
{
    if (op == OP_NEG) {
        *out = (BasicValue){wrap32(-(int64_t)a.v), a.fx};
        return BASIC_OK;
    }
    if (op == OP_NOT) {
        *out = (BasicValue){~to_logic(a), 0};
        return BASIC_OK;
    }
    return BASIC_ERR_INTERNAL;
}

int basic_format(BasicValue a, char *out, size_t cap)
{
    if (!a.fx) return snprintf(out, cap, "%d", a.v);
    int64_t mag = a.v < 0 ? -(int64_t)a.v : a.v;
    int64_t s = (mag * 100000 + 32768) / 65536;
    return snprintf(out, cap, "%s%lld.%05lld", a.v < 0 ? "-" : "", (long long)(s / 100000), (long long)(s % 100000));
}

/* ---- VM lifetime --------------------------------------------------------------- */
BasicVM *basic_vm_new(const BasicProgram *p)
{
    if (!p) return NULL;
    BasicVM *vm = calloc(1, sizeof *vm);
    if (!vm) return NULL;
    vm->cells = calloc((size_t)p->cells + 1, sizeof *vm->cells);
    vm->stack = calloc((size_t)p->max_stack + 4, sizeof *vm->stack);
    vm->locals = calloc((size_t)(BASIC_MAX_DEPTH + 1) * ((size_t)p->max_locals + 1), sizeof *vm->locals);
    if (!vm->cells || !vm->stack || !vm->locals) {
        free(vm->cells);
        free(vm->stack);
        free(vm->locals);
        free(vm);
        return NULL;
    }
    if (p->init) memcpy(vm->cells, p->init, (size_t)p->cells * sizeof *vm->cells);
    basic_program_retain(p);
    vm->prog = p;
    vm->error_op = -1;
    return vm;
}

void basic_vm_free(BasicVM *vm)
{
    if (!vm) return;
    basic_program_release(vm->prog);
    free(vm->cells);
    free(vm->stack);
    free(vm->locals);
    free(vm->log);
    free(vm);
}

void basic_vm_reset(BasicVM *vm)
{
    if (!vm) return;
    if (vm->prog->init) memcpy(vm->cells, vm->prog->init, (size_t)vm->prog->cells * sizeof *vm->cells);
    else memset(vm->cells, 0, (size_t)vm->prog->cells * sizeof *vm->cells);
    memset(vm->data, 0, sizeof vm->data);
    vm->instructions = vm->work = vm->print_bytes = vm->print_events = 0;
    vm->disabled = 0;
    vm->error_code = 0;
    vm->error_op = -1;
    vm->error[0] = 0;
    vm->decisions = 0;
    vm->instructions_total = 0;
    vm->last_action_error = 0;
    vm->attacks_landed = 0;
    vm->commands = vm->refused = 0;
    memset(vm->refused_by, 0, sizeof vm->refused_by);
    vm->log_total = 0;
    vm->fail_text[0] = 0;
}

/* ---- the log ----------------------------------------------------------------- */
void basic_vm_log(BasicVM *vm, const char *text, size_t n)
{
    if (!vm || n == 0) return;
    if (!vm->log) {
        vm->log = malloc(BASIC_LOG_BYTES);
        if (!vm->log) return;
    }
    if (n > BASIC_LOG_BYTES) {
        vm->log_total += (int64_t)(n - BASIC_LOG_BYTES);
        text += n - BASIC_LOG_BYTES;
        n = BASIC_LOG_BYTES;
    }
    for (size_t i = 0; i < n; i++) vm->log[(vm->log_total + (int64_t)i) % BASIC_LOG_BYTES] = text[i];
    vm->log_total += (int64_t)n;
}

int32_t basic_vm_log_copy(const BasicVM *vm, char *out, int32_t cap)
{
    if (!vm || !vm->log || cap <= 0) return 0;
    int64_t have = vm->log_total < BASIC_LOG_BYTES ? vm->log_total : BASIC_LOG_BYTES;
    int64_t first = vm->log_total - have;
    int32_t n = have < cap ? (int32_t)have : cap;
    for (int32_t i = 0; i < n; i++) out[i] = vm->log[(first + i) % BASIC_LOG_BYTES];
    return n;
}

int basic_vm_fail_text(BasicVM *vm, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vm->fail_text, sizeof vm->fail_text, fmt, ap);
    va_end(ap);
    return BASIC_ERR_HOST;
}

const BasicValue *basic_vm_global(const BasicVM *vm, const char *name)
{
    if (!vm || !name) return NULL;
    const BasicProgram *p = vm->prog;
    for (int32_t i = 0; i < p->globals; i++)
        if (strcmp(p->cell_name[i], name) == 0) return &vm->cells[i];
    return NULL;
}

const BasicValue *basic_vm_array(const BasicVM *vm, const char *name, int32_t *len)
{
    if (!vm || !name) return NULL;
    const BasicProgram *p = vm->prog;
    for (int32_t k = 0; k < p->arrays; k++)
        if (strcmp(p->cell_name[p->globals + k], name) == 0) {
            if (len) *len = p->array_len[k];
            return &vm->cells[p->array_base[k]];
        }
    return NULL;
}

/* ---- the interpreter -------------------------------------------------------- */
static const char *const ERROR_NAME[GOTA_SCRIPT_ERRORS] = {
    [BASIC_OK] = "none",
    [BASIC_ERR_INSTRUCTIONS] = "instruction limit",
    [BASIC_ERR_WORK] = "work limit",
    [BASIC_ERR_DEPTH] = "call depth limit",
    [BASIC_ERR_DIVZERO] = "division by zero",
    [BASIC_ERR_RANGE] = "out of range",
    [BASIC_ERR_NOT_INTEGER] = "not an integer",
    [BASIC_ERR_PRINT] = "print limit",
    [BASIC_ERR_HOST] = "bad host call",
    [BASIC_ERR_INTERNAL] = "internal error",
};

const char *gota_script_error_name(int32_t code)
{
    return code >= 0 && code < GOTA_SCRIPT_ERRORS ? ERROR_NAME[code] : NULL;
}

static const char *error_text(int code)
{
    const char *name = code > BASIC_OK ? gota_script_error_name(code) : NULL;
    return name ? name : ERROR_NAME[BASIC_ERR_INTERNAL];
}

static int print_text(BasicVM *vm, const char *s, size_t n)
{
    if (++vm->print_events > BASIC_PRINT_EVENTS || vm->print_bytes + (int64_t)n > BASIC_PRINT_BYTES)
        return BASIC_ERR_PRINT;
    vm->print_bytes += (int32_t)n;
    basic_vm_log(vm, s, n);
    return BASIC_OK;
}

static const char *value_text(BasicValue v, char *buf, size_t cap)
{
    basic_format(v, buf, cap);
    return buf;
}

/* An arithmetic error's detail, from the op and its operands. */
static void arith_detail(char *out, size_t cap, int code, int op, BasicValue a, BasicValue b)
{
    char x[32], y[32];
    value_text(a, x, sizeof x);
    value_text(b, y, sizeof y);
    if (code == BASIC_ERR_DIVZERO) snprintf(out, cap, "division by zero (%s %s 0)", x,
                                            op == OP_MOD ? "mod" : op == OP_IDIV ? "\\" : "/");
    else if (code == BASIC_ERR_RANGE)
        snprintf(out, cap, "integer %s does not fit a decimal (-32768 .. 32767); divide large integers with \\ first",
                 !a.fx && (a.v < -32768 || a.v > 32767) ? x : y);
    else if (code == BASIC_ERR_NOT_INTEGER)
        snprintf(out, cap, "%s is not an integer: '\\' and 'mod' need exact integers", a.fx && (a.v & 0xFFFF) ? x : y);
    else snprintf(out, cap, "%s", error_text(code));
}

#define PUSHV(val) (*sp++ = (val))
#define FAIL(code_) do { err = (code_); goto fail; } while (0)

static BasicValue sample_cell(BasicVM *vm, const BasicHostOps *ops, void *ctx, int k)
{
    vm->data[k] = ops && ops->sample ? ops->sample(ctx, k) : (BasicValue){0, 0};
    vm->sampled |= 1ull << k;
    return vm->data[k];
}

void basic_vm_sample_all(BasicVM *vm, const BasicHostOps *ops, void *ctx)
{
    int n = vm->prog->host->data_n;
    for (int k = 0; k < n && k < 64; k++)
        if (!((vm->sampled >> k) & 1)) sample_cell(vm, ops, ctx, k);
}

/* the right operand of a fused op: the stack, a constant, a global, a local or a host value */
#define OPERAND(mode, val, out) do {                                                          \
        switch (mode) {                                                                        \
        case M_STACK: (out) = *--sp; break;                                                    \
        case M_INT: (out) = (BasicValue){(val), 0}; break;                                     \
        case M_FX: (out) = (BasicValue){(val), 1}; break;                                      \
        case M_GLOBAL: (out) = g[(val)]; break;                                                \
        case M_LOCAL: (out) = fp[(val)]; break;                                                \
        default: (out) = ((vm->sampled >> (val)) & 1) ? vm->data[(val)] : sample_cell(vm, ops, ctx, (val)); \
        }                                                                                      \
    } while (0)

int basic_vm_run(BasicVM *vm, const BasicHostOps *ops, void *ctx)
{
    if (!vm) return BASIC_ERR_INTERNAL;
    if (vm->disabled) return vm->error_code;
    const BasicProgram *p = vm->prog;
    const BasicIns *code = p->code;
    const int32_t stride = p->max_locals + 1;
    const int16_t *cost = p->host_cost;
    vm->instructions = vm->work = vm->print_bytes = vm->print_events = 0;
    vm->decisions++;
    vm->sampled = 0;

    BasicValue *g = vm->cells;
    BasicValue *sp = vm->stack;
    BasicValue *fp = vm->locals;
    for (int32_t k = 0; k < p->routine[0].locals; k++) fp[k] = (BasicValue){0, 0};
    int32_t depth = 0, ip = p->routine[0].entry;
    int32_t instr = 0, hostwork = 0;
    int err = BASIC_OK;
    const BasicIns *in = code;
    char detail[192];
    detail[0] = 0;

    for (;;) {
        in = &code[ip++];
        switch (in->op) {
        case OP_NOP: break;
        case OP_METER:
            instr += in->b;
            if (instr > BASIC_DECISION_INSTRUCTIONS) FAIL(BASIC_ERR_INSTRUCTIONS);
            if (instr + hostwork > BASIC_DECISION_WORK) FAIL(BASIC_ERR_WORK);
            break;
        case OP_PUSH: PUSHV(((BasicValue){in->b, in->a})); break;
        case OP_LOADG: PUSHV(g[in->b]); break;
        case OP_STOREG: g[in->b] = *--sp; break;
        case OP_LOADL: PUSHV(fp[in->b]); break;
        case OP_STOREL: fp[in->b] = *--sp; break;
        case OP_SETG: OPERAND(BASIC_MODE(in->a), in->c, g[in->b]); break;
        case OP_DATA: {
            BasicValue v;
            OPERAND(M_DATA, in->b, v);
            PUSHV(v);
            break;
        }
        case OP_INCG: {
            BasicValue *v = &g[in->b];
            if (!v->fx) {
                v->v = wrap32((int64_t)v->v + in->a);
            } else {
                BasicValue r;
                int e = basic_arith(OP_ADD, *v, (BasicValue){in->a, 0}, &r);
                if (e) {
                    arith_detail(detail, sizeof detail, e, OP_ADD, *v, (BasicValue){in->a, 0});
                    FAIL(e);
                }
                *v = r;
            }
            break;
        }
        case OP_LOADA: case OP_STOREA: {
            int32_t arr = in->a & 0xFF, idx;
            BasicValue val = {0, 0}, iv;
            if (in->op == OP_STOREA) {
                OPERAND(in->a >> 8, in->c, val);
                iv = *--sp;
            } else {
                OPERAND(in->a >> 8, in->c, iv);
            }
            if (basic_to_int(iv, &idx) != BASIC_OK) {
                char x[32];
                snprintf(detail, sizeof detail, "array index %s of '%s' is not an integer", value_text(iv, x, sizeof x),
                         p->cell_name[p->globals + arr]);
                FAIL(BASIC_ERR_NOT_INTEGER);
            }
            if (idx < 0 || idx >= p->array_len[arr]) {
                snprintf(detail, sizeof detail, "array index %d out of bounds: '%s' has indices 0 .. %d", idx,
                         p->cell_name[p->globals + arr], p->array_len[arr] - 1);
                FAIL(BASIC_ERR_RANGE);
            }
            BasicValue *cell = &g[p->array_base[arr] + idx];
            if (in->op == OP_STOREA) *cell = val;
            else PUSHV(*cell);
            break;
        }
        case OP_HOST: case OP_HOST1: {
            int argc, id = in->b;
            BasicValue one[1];
            const BasicValue *args;
            if (in->op == OP_HOST) {
                argc = in->a;
                sp -= argc;
                args = sp;
            } else {
                argc = 1;
                OPERAND(BASIC_MODE(in->a), in->c, one[0]);
                args = one;
            }
            hostwork += cost[id & 255];
            if (instr + hostwork > BASIC_DECISION_WORK) FAIL(BASIC_ERR_WORK);
            BasicValue r = {0, 0};
            vm->instructions = instr;
            vm->work = instr + hostwork;
            int e = ops && ops->call ? ops->call(ctx, vm, id, args, argc, &r) : BASIC_ERR_HOST;
            if (e != BASIC_OK) {
                if (e == BASIC_ERR_HOST) snprintf(detail, sizeof detail, "%s", vm->fail_text);
                FAIL(e);
            }
            PUSHV(r);
            break;
        }
        case OP_POP: sp--; break;
        case OP_ADD: case OP_SUB: case OP_MUL: {
            BasicValue b, r;
            OPERAND(BASIC_MODE(in->a), in->c, b);
            BasicValue a = sp[-1];
            if (!a.fx && !b.fx) {
                int64_t x = in->op == OP_ADD ? (int64_t)a.v + b.v : in->op == OP_SUB ? (int64_t)a.v - b.v
                                                                                        : (int64_t)a.v * b.v;
                r = (BasicValue){wrap32(x), 0};
            } else {
                int e = basic_arith(in->op, a, b, &r);
                if (e) {
                    arith_detail(detail, sizeof detail, e, in->op, a, b);
                    FAIL(e);
                }
            }
            if (in->a & BASIC_DEST) {
                g[in->b] = r;
                sp--;
            } else {
                sp[-1] = r;
            }
            break;
        }
        case OP_DIV: case OP_IDIV: case OP_MOD:
        case OP_AND: case OP_OR: case OP_XOR: case OP_EQV: case OP_IMP: {
            BasicValue b, r;
            OPERAND(BASIC_MODE(in->a), in->c, b);
            BasicValue a = sp[-1];
            int e = basic_arith(in->op, a, b, &r);
            if (e) {
                arith_detail(detail, sizeof detail, e, in->op, a, b);
                FAIL(e);
            }
            if (in->a & BASIC_DEST) {
                g[in->b] = r;
                sp--;
            } else {
                sp[-1] = r;
            }
            break;
        }
        case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
            BasicValue b;
            OPERAND(BASIC_MODE(in->a), in->c, b);
            BasicValue r = {compare(in->op, sp[-1], b) ? -1 : 0, 0};
            if (in->a & BASIC_DEST) {
                g[in->b] = r;
                sp--;
            } else {
                sp[-1] = r;
            }
            break;
        }
        case OP_NEG: case OP_NOT: basic_unary(in->op, sp[-1], &sp[-1]); break;
        case OP_JMP: ip = in->b; break;
        case OP_JZ: {
            BasicValue v;
            OPERAND(BASIC_MODE(in->a), in->c, v);
            if (v.v == 0) ip = in->b;
            break;
        }
        case OP_JNZ:
            if ((--sp)->v != 0) ip = in->b;
            break;
        case OP_JZ_LT: case OP_JZ_LE: case OP_JZ_GT: case OP_JZ_GE: case OP_JZ_EQ: case OP_JZ_NE: {
            BasicValue b;
            OPERAND(BASIC_MODE(in->a), in->c, b);
            BasicValue a = *--sp;
            int t;
            if (!a.fx && !b.fx) {
                switch (in->op) {
                case OP_JZ_LT: t = a.v < b.v; break;
                case OP_JZ_LE: t = a.v <= b.v; break;
                case OP_JZ_GT: t = a.v > b.v; break;
                case OP_JZ_GE: t = a.v >= b.v; break;
                case OP_JZ_EQ: t = a.v == b.v; break;
                default: t = a.v != b.v; break;
                }
            } else {
                static const int cmp[6] = {OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE};
                t = compare(cmp[in->op - OP_JZ_LT], a, b);
            }
            if (!t) ip = in->b;
            break;
        }
        case OP_FORTEST: {
            BasicValue step = *--sp, end = *--sp, ctr = *--sp;
            PUSHV(((BasicValue){compare(step.v >= 0 ? OP_LE : OP_GE, ctr, end) ? -1 : 0, 0}));
            break;
        }
        case OP_FORNEXT: {
            BasicValue *v = (in->a & 1) ? &fp[in->c] : &g[in->c];
            const BasicValue *lim = &fp[in->a >> 1];
            BasicValue end = lim[0], step = lim[1];
            if (!v->fx && !step.fx && !end.fx) {
                int32_t nv = wrap32((int64_t)v->v + step.v);
                v->v = nv;
                if (step.v >= 0 ? nv <= end.v : nv >= end.v) ip = in->b;
            } else {
                BasicValue r;
                int e = basic_arith(OP_ADD, *v, step, &r);
                if (e) {
                    arith_detail(detail, sizeof detail, e, OP_ADD, *v, step);
                    FAIL(e);
                }
                *v = r;
                if (compare(step.v >= 0 ? OP_LE : OP_GE, r, end)) ip = in->b;
            }
            break;
        }
        case OP_CALL: {
            const BasicRoutine *r = &p->routine[in->b];
            if (depth >= BASIC_MAX_DEPTH) {
                snprintf(detail, sizeof detail, "call depth limit: more than %d nested sub calls (calling '%s'; "
                         "endless recursion?)", BASIC_MAX_DEPTH, r->name);
                FAIL(BASIC_ERR_DEPTH);
            }
            vm->frame[depth] = (BasicFrame){ip, 0, in->b};
            depth++;
            fp = vm->locals + (size_t)depth * (size_t)stride;
            sp -= r->params;
            for (int32_t k = 0; k < r->params; k++) fp[k] = sp[k];
            for (int32_t k = r->params; k < r->locals; k++) fp[k] = (BasicValue){0, 0};
            ip = r->entry;
            break;
        }
        case OP_RET:
            if (depth == 0) goto done;
            depth--;
            ip = vm->frame[depth].ret;
            fp = vm->locals + (size_t)depth * (size_t)stride;
            break;
        case OP_END: goto done;
        case OP_PRINT_STR: {
            const char *s = p->strings + in->b;
            if ((err = print_text(vm, s, strlen(s))) != BASIC_OK) goto print_fail;
            break;
        }
        case OP_PRINT_VAL: {
            char buf[40];
            int n = basic_format(*--sp, buf, sizeof buf);
            if ((err = print_text(vm, buf, (size_t)n)) != BASIC_OK) goto print_fail;
            break;
        }
        case OP_PRINT_NL:
            if ((err = print_text(vm, "\n", 1)) != BASIC_OK) goto print_fail;
            break;
        default:
            snprintf(detail, sizeof detail, "bad opcode %d", in->op);
            FAIL(BASIC_ERR_INTERNAL);
        }
    }
print_fail:
    snprintf(detail, sizeof detail, "print limit: more than %d bytes or %d items printed in one decision",
             BASIC_PRINT_BYTES, BASIC_PRINT_EVENTS);
    goto fail;
done:
    vm->instructions = instr;
    vm->work = instr + hostwork;
    vm->instructions_total += instr;
    return BASIC_OK;
fail:
    {
        int32_t at = (int32_t)(in - code);
        uint32_t pos = at >= 0 && at < p->code_n ? p->pos[at] : 0;
        if (!detail[0]) {
            if (err == BASIC_ERR_INSTRUCTIONS)
                snprintf(detail, sizeof detail, "instruction limit: more than %d instructions in one decision "
                         "(an endless loop?)", BASIC_DECISION_INSTRUCTIONS);
            else if (err == BASIC_ERR_WORK)
                snprintf(detail, sizeof detail, "work limit: more than %d work units in one decision",
                         BASIC_DECISION_WORK);
            else snprintf(detail, sizeof detail, "%s", error_text(err));
        }
        vm->instructions = instr;
        vm->work = instr + hostwork;
        vm->instructions_total += instr;
        vm->disabled = 1;
        vm->error_code = err;
        vm->error_op = at;
        snprintf(vm->error, sizeof vm->error, "%.80s:%u:%u: runtime error: %.150s", p->name, pos >> 12, pos & 0xFFF,
                 detail);
        char line[448];
        int n = snprintf(line, sizeof line, "%s (the script is disabled for the rest of the match)\n", vm->error);
        if (n > 0) basic_vm_log(vm, line, (size_t)(n < (int)sizeof line ? n : (int)sizeof line - 1));
        return err;
    }
}
