/*
 * basic_compile.c -- GotA BASIC source to bytecode (basic.h; docs/basic.md).
 *
 * Passes over the token array of basic_lex:
 *   1. declarations: every `sub name(params) ... end sub` (its token range and
 *      parameters), every top-level `dim name(bound), ...` and every DATA
 *      table (`DATA name [AS int32|fixed32] = 1, -0.5, ...`: a read-only
 *      array with those values), so calls and arrays may appear before their
 *      definitions;
 *   2. the subs, one routine each (routine 1..), then the main program
 *      (routine 0): the top-level statements in source order, skipping the
 *      sub definitions, the dims and the DATA tables.
 * Each declaration and each routine is compiled under its own error handler:
 * an error ends that unit, the others still compile, and the error reported
 * is the first one in source order (by line and column), whichever pass
 * found it.
 * Code generation is single pass per routine, recursive descent, with forward
 * jumps patched through chains. Every jump target and the fall-through of
 * every conditional jump starts with an OP_METER that charges the counted
 * instructions of its block, so the VM checks the instruction limit once per
 * block. Counted instructions are every op but operand fetches (constants,
 * variables, host values) and meters; fused ops count as what they replace,
 * so limits do not depend on the peephole fusion done while emitting
 * (constant folding, compare-and-branch, loads, increments, host calls).
 * Errors longjmp back to the unit's handler with "name:line:col: message".
 *
 * The original's neural-network calls (nn_richard, nn_david, andre_nn, ...:
 * float32 networks whose weights come from the policy's ZIP package) are
 * refused by name at compile time, as is the use of the arrays they return.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic.h"

#define SYMTAB 2048
enum { S_NONE = 0, S_GLOBAL, S_ARRAY, S_SUB, S_CONST, S_DATA, S_FUNC };

typedef struct {
    char name[BASIC_MAX_IDENT + 1];
    int8_t kind;
    int8_t argc;
    int32_t index;    /* global cell, array, routine, data cell, function id */
    int32_t value;    /* constant value; function cost */
} Sym;

typedef struct {
    int32_t first, end;    /* token range of the whole definition (sub .. end sub inclusive) */
    int32_t body;          /* first token of the body */
    int32_t params;
    int32_t broken;        /* its header failed: not compiled, calls not checked */
    char param[BASIC_MAX_PARAMS][BASIC_MAX_IDENT + 1];
} SubDecl;

typedef struct {
    int kind;              /* K_FOR, K_DO */
    int32_t exits;         /* chain of jumps to the loop's exit */
    char var[BASIC_MAX_IDENT + 1];   /* for: the counter */
} Loop;

typedef struct {
    const char *src;
    int32_t len;
    const char *name;
    const BasicHostTable *host;
    BasicToken *tok;
    int32_t ntok, p;
    jmp_buf *jump;         /* the current unit's error handler */
    char *err;
    size_t errcap;
    /* the unit's error (errorf) and the first error in source order */
    char msg[400];
    int32_t msg_line, msg_col;
    int32_t have_err, err_line, err_col;
    char first_err[400];
    /* output */
    BasicProgram *prog;
    BasicIns *code;
    uint32_t *pos;
    int32_t n, cap;
    uint32_t cur_pos;
    int32_t depth, max_depth;
    int32_t meter_at;      /* index of the last METER (fusion never reaches before it) */
    /* symbols */
    Sym *tab;
    int32_t globals, arrays, cells;
    char (*names)[BASIC_MAX_IDENT + 1];   /* globals then arrays */
    SubDecl *subs;
    int32_t sub_n;
    int32_t dim_tokens[BASIC_MAX_ARRAYS * 2 + 64];   /* token ranges of top-level dims and DATA, pairs */
    int32_t dim_n;
    BasicValue *init;      /* initial array cells (DATA tables), NULL without */
    uint8_t readonly[BASIC_MAX_ARRAYS];
    int32_t blob_cell;     /* the hidden global counting blobCreate handles, -1 none */
    int32_t uses_draft;    /* the program calls draftHero */
    /* the routine being compiled */
    int32_t routine;       /* 0 main */
    const SubDecl *sub;    /* NULL for main */
    int32_t locals;
    int32_t block_depth, expr_depth;
    Loop loop[BASIC_MAX_NESTING + 1];
    int32_t loops;
    int32_t pending_next;  /* `next a, b`: b still to close */
    int32_t single_line;   /* parsing the branches of a single-line if */
    /* strings */
    char *strings;
    int32_t strings_n, strings_cap;
    char lname[BASIC_MAX_IDENT + 1];
} Compiler;

static void errorf(Compiler *c, const BasicToken *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    va_end(ap);
    c->msg_line = t ? t->line : 1;
    c->msg_col = t ? t->col : 1;
    longjmp(*c->jump, 1);
}

/* Keep the unit's error if it is the first in source order. */
static void record_error(Compiler *c)
{
    if (c->have_err && (c->msg_line > c->err_line || (c->msg_line == c->err_line && c->msg_col >= c->err_col))) return;
    c->have_err = 1;
    c->err_line = c->msg_line;
    c->err_col = c->msg_col;
    snprintf(c->first_err, sizeof c->first_err, "%s", c->msg);
}

/* ---- tokens ---------------------------------------------------------------- */
/* A lexical error is reported when the parser reaches it: everything before
 * it compiled, so it is the first error of its unit. */
static void lex_fail(Compiler *c, const BasicToken *t)
{
    char buf[320];
    basic_lex_message(c->src, t, buf, sizeof buf);
    errorf(c, t, "%s", buf);
}

static const BasicToken *peek(Compiler *c)
{
    const BasicToken *t = &c->tok[c->p];
    if (t->type == T_ERROR) lex_fail(c, t);
    return t;
}
static const BasicToken *peek2(const Compiler *c) { return &c->tok[c->p + 1 < c->ntok ? c->p + 1 : c->p]; }
static int at(Compiler *c, int type) { return peek(c)->type == type; }
static const BasicToken *next(Compiler *c)
{
    const BasicToken *t = peek(c);
    if (t->type != T_EOF) c->p++;
    return t;
}

/* The token is the plain name `word` (lower case). */
static int is_word(const Compiler *c, const BasicToken *t, const char *word)
{
    if (t->type != T_IDENT) return 0;
    int32_t n = (int32_t)strlen(word);
    if (t->len != n) return 0;
    for (int32_t i = 0; i < n; i++) {
        char ch = c->src[t->start + i];
        if ((ch >= 'A' && ch <= 'Z' ? ch + 32 : ch) != word[i]) return 0;
    }
    return 1;
}

/* What a token looks like in a message: its text, or its kind. */
static const char *describe(const Compiler *c, const BasicToken *t, char *buf, size_t cap)
{
    if (t->type == T_IDENT || (t->type >= K_AND && t->type < T_KINDS) || t->type == T_INT || t->type == T_FIXED) {
        int n = t->len < 40 ? t->len : 40;
        snprintf(buf, cap, "'%.*s'", n, c->src + t->start);
        return buf;
    }
    if (t->type == T_STR) return "a string";
    return basic_token_name(t->type);
}

static void expected(Compiler *c, const char *what)
{
    char buf[64];
    const BasicToken *t = peek(c);
    errorf(c, t, "expected %s, found %s", what, describe(c, t, buf, sizeof buf));
}

static const BasicToken *expect(Compiler *c, int type, const char *what)
{
    if (!at(c, type)) expected(c, what);
    return next(c);
}

static const char *ident_name(Compiler *c, const BasicToken *t)
{
    int n = t->len;
    for (int i = 0; i < n; i++) {
        char ch = c->src[t->start + i];
        c->lname[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    c->lname[n] = 0;
    return c->lname;
}

/* A name token in lower case into buf. */
static const char *token_name(const Compiler *c, const BasicToken *t, char *buf)
{
    int n = t->len <= BASIC_MAX_IDENT ? t->len : BASIC_MAX_IDENT;
    for (int i = 0; i < n; i++) {
        char ch = c->src[t->start + i];
        buf[i] = (char)(ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
    }
    buf[n] = 0;
    return buf;
}

static int statement_start(const Compiler *c, int32_t i)
{
    return i == 0 || c->tok[i - 1].type == T_NL || c->tok[i - 1].type == T_COLON;
}

/* The original's neural-network calls: its networks (nn_richard, nn_david,
 * andre_nn, ...) and its neural seats' functions. */
static int neural_name(const char *name)
{
    static const char *const SEAT[] = {"run_neural_net", "neuralobservation", "neurallogits", "neuralstate",
                                       "neuralmodel", "gota_act"};
    size_t n = strlen(name);
    if (n > 3 && (strncmp(name, "nn_", 3) == 0 || strcmp(name + n - 3, "_nn") == 0)) return 1;
    for (size_t k = 0; k < sizeof SEAT / sizeof SEAT[0]; k++)
        if (strcmp(name, SEAT[k]) == 0) return 1;
    return 0;
}

static void neural_fail(Compiler *c, const BasicToken *t, const char *name)
{
    errorf(c, t, "'%s' is a neural-network call of the original (a float32 network whose weights come from the "
           "policy's ZIP package); gota-arena's script VM has no floating point and loads no files, so "
           "neural-network calls are not supported (a trained network plays here as a Python policy)", name);
}

/* `name = f(...)` somewhere in the source with f a neural-network call: f's token, else NULL. */
static const BasicToken *neural_source(const Compiler *c, const char *name)
{
    char a[BASIC_MAX_IDENT + 1], b[BASIC_MAX_IDENT + 1];
    for (int32_t i = 0; i + 3 < c->ntok; i++) {
        const BasicToken *t = &c->tok[i];
        if (t->type != T_IDENT || !statement_start(c, i) || c->tok[i + 1].type != T_EQ ||
            c->tok[i + 2].type != T_IDENT || c->tok[i + 3].type != T_LP)
            continue;
        if (strcmp(token_name(c, t, a), name) == 0 && neural_name(token_name(c, &c->tok[i + 2], b))) return &c->tok[i + 2];
    }
    return NULL;
}

/* `name(...)` names no array, sub or function: say why as well as we can. */
static void unknown_call(Compiler *c, const BasicToken *t, const char *name, const char *what)
{
    char fname[BASIC_MAX_IDENT + 1];
    if (neural_name(name)) neural_fail(c, t, name);
    const BasicToken *src = neural_source(c, name);
    if (src)
        errorf(c, t, "'%s' is indexed like an array, but it holds the result of %s (line %d), a neural-network call "
               "of the original that returns an array; neural-network calls are not supported in gota-arena",
               name, token_name(c, src, fname), src->line);
    errorf(c, t, "unknown %s '%s' (arrays need a top-level 'dim %s(n)' or 'DATA %s = ...')", what, name, name, name);
}

static int end_of_statement(Compiler *c)
{
    int t = peek(c)->type;
    return t == T_NL || t == T_COLON || t == T_EOF || (c->single_line && t == K_ELSE);
}

/* ---- symbols --------------------------------------------------------------- */
static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) h = (h ^ (uint8_t)*s++) * 16777619u;
    return h;
}

static Sym *sym_find(Compiler *c, const char *name)
{
    uint32_t i = name_hash(name) & (SYMTAB - 1);
    for (;;) {
        Sym *s = &c->tab[i];
        if (s->kind == S_NONE) return NULL;
        if (strcmp(s->name, name) == 0) return s;
        i = (i + 1) & (SYMTAB - 1);
    }
}

static Sym *sym_add(Compiler *c, const char *name, int kind)
{
    uint32_t i = name_hash(name) & (SYMTAB - 1);
    while (c->tab[i].kind != S_NONE) i = (i + 1) & (SYMTAB - 1);
    Sym *s = &c->tab[i];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->kind = (int8_t)kind;
    return s;
}

static const char *kind_text(int kind)
{
    switch (kind) {
    case S_ARRAY: return "an array";
    case S_SUB: return "a sub";
    case S_CONST: return "a read-only constant";
    case S_DATA: return "a read-only host value";
    case S_FUNC: return "a host function";
    default: return "a variable";
    }
}

static int param_index(const Compiler *c, const char *name)
{
    if (!c->sub) return -1;
    for (int i = 0; i < c->sub->params; i++)
        if (strcmp(c->sub->param[i], name) == 0) return i;
    return -1;
}

static int32_t global_of(Compiler *c, const BasicToken *t, const char *name)
{
    Sym *s = sym_find(c, name);
    if (s && s->kind != S_GLOBAL) errorf(c, t, "'%s' is %s, not a variable", name, kind_text(s->kind));
    if (s) return s->index;
    if (c->globals >= BASIC_MAX_GLOBALS)
        errorf(c, t, "too many variables: at most %d scalar variables (globals)", BASIC_MAX_GLOBALS);
    s = sym_add(c, name, S_GLOBAL);
    s->index = c->globals++;
    return s->index;
}

/* blobCreate/blobClear count their handles in a hidden global of the program;
 * a program that calls draftHero takes part in the draft. */
static void note_host_call(Compiler *c, const BasicToken *t, const char *name)
{
    if (c->blob_cell < 0 && (!strcmp(name, "blobcreate") || !strcmp(name, "blobclear")))
        c->blob_cell = global_of(c, t, "(blobs)");
    if (!strcmp(name, "drafthero")) c->uses_draft = 1;
}

/* ---- emitting -------------------------------------------------------------- */
static int is_binary(int op) { return op >= OP_ADD && op <= OP_IMP; }
static int is_compare(int op) { return op >= OP_EQ && op <= OP_GE; }

/* Counted instructions of an op: operand fetches are free, fused ops count as
 * the ops they replace. */
static int op_counted(const BasicIns *i)
{
    switch (i->op) {
    case OP_NOP: case OP_METER: case OP_PUSH: case OP_LOADG: case OP_LOADL: case OP_DATA: return 0;
    case OP_JZ_LT: case OP_JZ_LE: case OP_JZ_GT: case OP_JZ_GE: case OP_JZ_EQ: case OP_JZ_NE: case OP_INCG: return 2;
    case OP_FORNEXT: return 5;   /* add, store, compare, jump, as `next` unfused */
    default:
        if (is_binary(i->op)) return 1 + ((i->a & BASIC_DEST) != 0);
        return 1;
    }
}

static int op_effect(const BasicIns *i)
{
    int stack = BASIC_MODE(i->a) == M_STACK;
    switch (i->op) {
    case OP_PUSH: case OP_LOADG: case OP_LOADL: case OP_DATA: case OP_HOST1: return 1;
    case OP_STOREG: case OP_STOREL: case OP_POP: case OP_PRINT_VAL: case OP_JNZ: return -1;
    case OP_JZ: return stack ? -1 : 0;
    case OP_JZ_LT: case OP_JZ_LE: case OP_JZ_GT: case OP_JZ_GE: case OP_JZ_EQ: case OP_JZ_NE: return stack ? -2 : -1;
    case OP_LOADA: return (i->a >> 8) == M_STACK ? 0 : 1;
    case OP_STOREA: return (i->a >> 8) == M_STACK ? -2 : -1;
    case OP_FORTEST: return -2;
    case OP_HOST: return 1 - i->a;
    case OP_CALL: return 0;   /* adjusted by the caller (arguments) */
    default:
        if (is_binary(i->op)) return (stack ? -1 : 0) - ((i->a & BASIC_DEST) != 0);
        return 0;
    }
}

static int32_t emit3(Compiler *c, int op, int a, int32_t b, int32_t cc)
{
    if (c->n >= BASIC_MAX_OPS) errorf(c, peek(c), "program too large: more than %d bytecode operations", BASIC_MAX_OPS);
    if (c->n >= c->cap) {
        int32_t cap = c->cap ? c->cap * 2 : 1024;
        BasicIns *code = realloc(c->code, (size_t)cap * sizeof *code);
        if (code) c->code = code;
        uint32_t *pos = realloc(c->pos, (size_t)cap * sizeof *pos);
        if (pos) c->pos = pos;
        if (!code || !pos) errorf(c, peek(c), "out of memory");
        c->cap = cap;
    }
    BasicIns *ins = &c->code[c->n];
    ins->op = (uint16_t)op;
    ins->a = (int16_t)a;
    ins->b = b;
    ins->c = cc;
    c->pos[c->n] = c->cur_pos;
    c->depth += op_effect(ins);
    if (c->depth > c->max_depth) c->max_depth = c->depth;
    return c->n++;
}

static int32_t emit(Compiler *c, int op, int a, int32_t b) { return emit3(c, op, a, b, 0); }

static void set_pos(Compiler *c, const BasicToken *t)
{
    c->cur_pos = ((uint32_t)(t->line > 0xFFFFF ? 0xFFFFF : t->line) << 12) | (uint32_t)(t->col > 4095 ? 4095 : t->col);
}

/* the op at index i may be rewritten: after the last meter */
static int fusable(const Compiler *c, int32_t i) { return i > c->meter_at && i < c->n; }

/* A block start: a METER (a label points here). Consecutive meters merge. */
static int32_t label(Compiler *c)
{
    if (c->n > 0 && c->meter_at == c->n - 1) return c->n - 1;
    int32_t i = emit(c, OP_METER, 0, 0);
    c->meter_at = i;
    return i;
}

static void emit_push(Compiler *c, BasicValue v) { emit(c, OP_PUSH, v.fx, v.v); }

static int is_push(const Compiler *c, int32_t i) { return fusable(c, i) && c->code[i].op == OP_PUSH; }
static BasicValue push_value(const Compiler *c, int32_t i) { return (BasicValue){c->code[i].b, c->code[i].a}; }

static void drop_last(Compiler *c, int k)
{
    for (int j = 0; j < k; j++) {
        c->n--;
        c->depth -= op_effect(&c->code[c->n]);
    }
}

/* The op at i pushes a constant, a global, a local or a host value: its mode and operand. */
static int simple_operand(const Compiler *c, int32_t i, int *mode, int32_t *val)
{
    if (!fusable(c, i)) return 0;
    const BasicIns *in = &c->code[i];
    switch (in->op) {
    case OP_PUSH: *mode = in->a ? M_FX : M_INT; *val = in->b; return 1;
    case OP_LOADG: *mode = M_GLOBAL; *val = in->b; return 1;
    case OP_LOADL: *mode = M_LOCAL; *val = in->b; return 1;
    case OP_DATA: *mode = M_DATA; *val = in->b; return 1;
    default: return 0;
    }
}

static void emit_binary(Compiler *c, int op)
{
    /* constant folding: two pushes and an operation that succeeds */
    if (is_push(c, c->n - 1) && is_push(c, c->n - 2)) {
        BasicValue r;
        if (basic_arith(op, push_value(c, c->n - 2), push_value(c, c->n - 1), &r) == BASIC_OK) {
            drop_last(c, 2);
            emit_push(c, r);
            return;
        }
    }
    int mode;
    int32_t val;
    if (simple_operand(c, c->n - 1, &mode, &val)) {
        drop_last(c, 1);
        emit3(c, op, mode, 0, val);
        return;
    }
    emit(c, op, M_STACK, 0);
}

static void emit_unary(Compiler *c, int op)
{
    if (is_push(c, c->n - 1)) {
        BasicValue r;
        if (basic_unary(op, push_value(c, c->n - 1), &r) == BASIC_OK) {
            drop_last(c, 1);
            emit_push(c, r);
            return;
        }
    }
    emit(c, op, 0, 0);
}

static void emit_loadg(Compiler *c, int32_t g) { emit(c, OP_LOADG, 0, g); }

static void emit_storeg(Compiler *c, int32_t g)
{
    int32_t n = c->n;
    int mode;
    int32_t val;
    /* LOADG g; ADD/SUB int k -> INCG */
    if (fusable(c, n - 2) && c->code[n - 2].op == OP_LOADG && c->code[n - 2].b == g &&
        (c->code[n - 1].op == OP_ADD || c->code[n - 1].op == OP_SUB) && c->code[n - 1].a == M_INT &&
        c->code[n - 1].c > -32768 && c->code[n - 1].c < 32768) {
        int16_t k = (int16_t)(c->code[n - 1].op == OP_ADD ? c->code[n - 1].c : -c->code[n - 1].c);
        drop_last(c, 2);
        emit(c, OP_INCG, k, g);
        return;
    }
    if (simple_operand(c, n - 1, &mode, &val)) {
        drop_last(c, 1);
        emit3(c, OP_SETG, mode, g, val);
        return;
    }
    if (fusable(c, n - 1) && is_binary(c->code[n - 1].op) && !(c->code[n - 1].a & BASIC_DEST)) {
        BasicIns *in = &c->code[n - 1];
        c->depth -= op_effect(in);
        in->a = (int16_t)(in->a | BASIC_DEST);
        in->b = g;
        c->depth += op_effect(in);
        return;
    }
    emit(c, OP_STOREG, 0, g);
}

static void emit_host(Compiler *c, int argc, int id)
{
    int mode;
    int32_t val;
    if (argc == 1 && simple_operand(c, c->n - 1, &mode, &val)) {
        drop_last(c, 1);
        emit3(c, OP_HOST1, mode, id, val);
        return;
    }
    emit(c, OP_HOST, argc, id);
}

static void emit_loada(Compiler *c, int arr)
{
    int mode;
    int32_t val;
    if (simple_operand(c, c->n - 1, &mode, &val)) {
        drop_last(c, 1);
        emit3(c, OP_LOADA, arr | mode << 8, 0, val);
        return;
    }
    emit(c, OP_LOADA, arr, 0);
}

static void emit_storea(Compiler *c, int arr)
{
    int mode;
    int32_t val;
    if (simple_operand(c, c->n - 1, &mode, &val)) {
        drop_last(c, 1);
        emit3(c, OP_STOREA, arr | mode << 8, 0, val);
        return;
    }
    emit(c, OP_STOREA, arr, 0);
}

/* A jump whose target is patched later: the chain links through b. */
static int32_t emit_jump(Compiler *c, int op, int32_t chain) { return emit(c, op, 0, chain); }

/* A conditional jump (on the value just computed) to be patched; the fall-through is a new block. */
static int32_t emit_jz(Compiler *c, int32_t chain)
{
    int32_t prev = c->n - 1;
    int mode;
    int32_t val, j;
    if (fusable(c, prev) && is_compare(c->code[prev].op) && !(c->code[prev].a & BASIC_DEST)) {
        static const int fused[6] = {OP_JZ_EQ, OP_JZ_NE, OP_JZ_LT, OP_JZ_LE, OP_JZ_GT, OP_JZ_GE};
        BasicIns cmp = c->code[prev];
        uint32_t pos = c->pos[prev], keep = c->cur_pos;
        drop_last(c, 1);
        c->cur_pos = pos;
        j = emit3(c, fused[cmp.op - OP_EQ], cmp.a, chain, cmp.c);
        c->cur_pos = keep;
    } else if (simple_operand(c, prev, &mode, &val)) {
        drop_last(c, 1);
        j = emit3(c, OP_JZ, mode, chain, val);
    } else {
        j = emit_jump(c, OP_JZ, chain);
    }
    label(c);
    return j;
}

static void patch(Compiler *c, int32_t chain, int32_t target)
{
    while (chain >= 0) {
        int32_t nx = c->code[chain].b;
        c->code[chain].b = target;
        chain = nx;
    }
}

static int32_t chain_join(Compiler *c, int32_t a, int32_t b)
{
    if (a < 0) return b;
    if (b < 0) return a;
    int32_t i = a;
    while (c->code[i].b >= 0) i = c->code[i].b;
    c->code[i].b = b;
    return a;
}

static int32_t new_local(Compiler *c, const BasicToken *t)
{
    if (c->locals >= BASIC_MAX_REGISTERS)
        errorf(c, t, "too many nested loops and selects in one routine (%d registers)", BASIC_MAX_REGISTERS);
    return c->locals++;
}

/* ---- expressions ----------------------------------------------------------- */
static void expr(Compiler *c);

static void call_args(Compiler *c, const BasicToken *name_tok, const char *name, int want, const char *what)
{
    int n = 0;
    if (at(c, T_LP)) {
        next(c);
        if (!at(c, T_RP)) {
            for (;;) {
                expr(c);
                n++;
                if (!at(c, T_COMMA)) break;
                next(c);
            }
        }
        expect(c, T_RP, "')' after the arguments");
    }
    if (n != want)
        errorf(c, name_tok, "%s '%s' takes %d argument%s, got %d", what, name, want, want == 1 ? "" : "s", n);
}

static void primary(Compiler *c)
{
    const BasicToken *t = peek(c);
    char buf[64];
    switch (t->type) {
    case T_INT:
        next(c);
        emit_push(c, (BasicValue){t->value, 0});
        return;
    case T_FIXED:
        next(c);
        emit_push(c, (BasicValue){t->value, 1});
        return;
    case T_LP:
        next(c);
        expr(c);
        expect(c, T_RP, "')'");
        return;
    case T_STR:
        errorf(c, t, "a string can only be printed (GotA BASIC values are numbers)");
        return;
    case T_IDENT: break;
    default:
        errorf(c, t, "expected a value, found %s", describe(c, t, buf, sizeof buf));
    }
    next(c);
    const char *name = ident_name(c, t);
    int li = param_index(c, name);
    if (li >= 0) {
        if (at(c, T_LP)) errorf(c, t, "'%s' is a parameter, not an array or a function", name);
        set_pos(c, t);
        emit(c, OP_LOADL, 0, li);
        return;
    }
    Sym *s = sym_find(c, name);
    if (s && s->kind == S_CONST) {
        if (at(c, T_LP)) errorf(c, t, "'%s' is a constant, not a function", name);
        emit_push(c, (BasicValue){s->value, 0});
        return;
    }
    if (s && s->kind == S_DATA) {
        if (at(c, T_LP)) errorf(c, t, "'%s' is a host value: write it without parentheses", name);
        emit(c, OP_DATA, 0, s->index);
        return;
    }
    if (s && s->kind == S_FUNC) {
        char fname[BASIC_MAX_IDENT + 1];
        snprintf(fname, sizeof fname, "%s", name);
        if (!at(c, T_LP)) errorf(c, t, "'%s' is a host function: call it as %s(...)", fname, fname);
        note_host_call(c, t, fname);
        call_args(c, t, fname, s->argc, "function");
        set_pos(c, t);
        emit_host(c, s->argc, s->index);
        return;
    }
    if (s && s->kind == S_ARRAY) {
        if (!at(c, T_LP)) errorf(c, t, "'%s' is an array: index it as %s(i)", name, name);
        int32_t arr = s->index;
        next(c);
        expr(c);
        expect(c, T_RP, "')' after the array index");
        set_pos(c, t);
        emit_loada(c, arr);
        return;
    }
    if (s && s->kind == S_SUB) errorf(c, t, "sub '%s' does not return a value; call it as a statement", name);
    if (at(c, T_LP)) unknown_call(c, t, name, "array or function");
    emit_loadg(c, global_of(c, t, name));
}

static void unary(Compiler *c)
{
    const BasicToken *t = peek(c);
    if (t->type == T_MINUS || t->type == T_PLUS) {
        if (++c->expr_depth > BASIC_MAX_NESTING) errorf(c, t, "expression nested too deeply (%d levels)", BASIC_MAX_NESTING);
        next(c);
        unary(c);
        c->expr_depth--;
        if (t->type == T_MINUS) {
            set_pos(c, t);
            emit_unary(c, OP_NEG);
        }
        return;
    }
    primary(c);
    if (at(c, T_CARET)) errorf(c, peek(c), "'^' (power) is not supported in GotA BASIC; multiply instead");
}

typedef struct { int tok; int op; } BinOp;

static void binary_level(Compiler *c, int level);

static const BinOp LEVELS[][6] = {
    /* 0 imp */ {{K_IMP, OP_IMP}, {0, 0}},
    /* 1 eqv */ {{K_EQV, OP_EQV}, {0, 0}},
    /* 2 xor */ {{K_XOR, OP_XOR}, {0, 0}},
    /* 3 or  */ {{K_OR, OP_OR}, {0, 0}},
    /* 4 and */ {{K_AND, OP_AND}, {0, 0}},
    /* 5 not (prefix) */ {{0, 0}},
    /* 6 comparisons */
    {{T_EQ, OP_EQ}, {T_NE, OP_NE}, {T_LT, OP_LT}, {T_LE, OP_LE}, {T_GT, OP_GT}, {T_GE, OP_GE}},
    /* 7 + - */ {{T_PLUS, OP_ADD}, {T_MINUS, OP_SUB}, {0, 0}},
    /* 8 mod */ {{K_MOD, OP_MOD}, {0, 0}},
    /* 9 \ */ {{T_BSLASH, OP_IDIV}, {0, 0}},
    /* 10 * / */ {{T_STAR, OP_MUL}, {T_SLASH, OP_DIV}, {0, 0}},
};
#define LEVEL_N 11

static void operand(Compiler *c, int level)
{
    if (level + 1 < LEVEL_N) binary_level(c, level + 1);
    else unary(c);
}

static void binary_level(Compiler *c, int level)
{
    if (level == 5) {   /* NOT binds below comparisons, above AND */
        if (at(c, K_NOT)) {
            const BasicToken *t = next(c);
            if (++c->expr_depth > BASIC_MAX_NESTING) errorf(c, t, "expression nested too deeply (%d levels)", BASIC_MAX_NESTING);
            binary_level(c, 5);
            c->expr_depth--;
            set_pos(c, t);
            emit_unary(c, OP_NOT);
            return;
        }
        operand(c, level);
        return;
    }
    operand(c, level);
    for (;;) {
        const BasicToken *t = peek(c);
        int op = -1;
        for (int k = 0; k < 6 && LEVELS[level][k].tok; k++)
            if (LEVELS[level][k].tok == t->type) op = LEVELS[level][k].op;
        if (op < 0) return;
        next(c);
        operand(c, level);
        set_pos(c, t);
        emit_binary(c, op);
    }
}

static void expr(Compiler *c)
{
    if (++c->expr_depth > BASIC_MAX_NESTING)
        errorf(c, peek(c), "expression nested too deeply (%d levels)", BASIC_MAX_NESTING);
    binary_level(c, 0);
    c->expr_depth--;
}

/* ---- statements ------------------------------------------------------------ */
static void statements(Compiler *c);
static void statement(Compiler *c);

static void enter_block(Compiler *c, const BasicToken *t)
{
    if (++c->block_depth > BASIC_MAX_NESTING) errorf(c, t, "blocks nested too deeply (%d levels)", BASIC_MAX_NESTING);
    if (c->single_line) {
        char buf[64];
        errorf(c, t, "a %s block cannot be inside a single-line if; use a block if ... end if",
               describe(c, t, buf, sizeof buf));
    }
}

static void end_statement(Compiler *c)
{
    if (!end_of_statement(c)) expected(c, "the end of the statement");
}

/* store into a scalar target: parameter or global */
static void store_var(Compiler *c, const BasicToken *t, const char *name)
{
    int li = param_index(c, name);
    set_pos(c, t);
    if (li >= 0) emit(c, OP_STOREL, 0, li);
    else emit_storeg(c, global_of(c, t, name));
}

static void load_var(Compiler *c, const BasicToken *t, const char *name)
{
    int li = param_index(c, name);
    set_pos(c, t);
    if (li >= 0) emit(c, OP_LOADL, 0, li);
    else emit_loadg(c, global_of(c, t, name));
}

static void check_assignable(Compiler *c, const BasicToken *t, const char *name)
{
    if (param_index(c, name) >= 0) return;
    Sym *s = sym_find(c, name);
    if (s && s->kind != S_GLOBAL) errorf(c, t, "cannot assign to '%s': it is %s", name, kind_text(s->kind));
}

static void assignment(Compiler *c, const BasicToken *t)
{
    char name[BASIC_MAX_IDENT + 1];
    snprintf(name, sizeof name, "%s", ident_name(c, t));
    Sym *s = param_index(c, name) < 0 ? sym_find(c, name) : NULL;
    if (s && s->kind == S_ARRAY) {
        if (c->readonly[s->index])
            errorf(c, t, "cannot assign to '%s': it is a read-only DATA table (copy it into a dim array to change it)",
                   name);
        if (!at(c, T_LP)) errorf(c, t, "'%s' is an array: assign an element, %s(i) = ...", name, name);
        next(c);
        expr(c);
        expect(c, T_RP, "')' after the array index");
        expect(c, T_EQ, "'=' in the assignment");
        expr(c);
        set_pos(c, t);
        emit_storea(c, s->index);
        return;
    }
    check_assignable(c, t, name);
    expect(c, T_EQ, "'=' in the assignment");
    expr(c);
    store_var(c, t, name);
}

static void sub_call(Compiler *c, const BasicToken *t, const Sym *s)
{
    const SubDecl *d = &c->subs[s->index - 1];
    int32_t before = c->depth;
    if (d->broken) {   /* its header's error is reported; accept the call as written */
        if (at(c, T_LP)) {
            next(c);
            while (!at(c, T_RP) && !end_of_statement(c)) {
                expr(c);
                if (!at(c, T_COMMA)) break;
                next(c);
            }
            expect(c, T_RP, "')' after the arguments");
        }
        c->depth = before;
        return;
    }
    call_args(c, t, c->prog->routine[s->index].name, d->params, "sub");
    set_pos(c, t);
    emit(c, OP_CALL, 0, s->index);
    c->depth = before;
}

/* Words that are statements in other dialects but plain names in GotA BASIC,
 * as the original's: a statement meaning only where no assignment follows. */
static void statement_word(Compiler *c, const BasicToken *t, const char *name)
{
    int k = peek(c)->type;
    if (k == T_EQ || k == T_LP) return;
    if (!strcmp(name, "data") && k == T_IDENT) {
        if (c->routine == 0 && c->block_depth == 0)
            errorf(c, t, "a DATA table is 'DATA name [AS int32|fixed32] = value, value, ...'");
        errorf(c, t, "DATA tables are allowed only at the top level, outside subs and blocks");
    }
    if (!strcmp(name, "type"))
        errorf(c, t, "records ('type ... end type') are not supported in GotA BASIC; use arrays and variables");
    if (!strcmp(name, "read") || !strcmp(name, "restore"))
        errorf(c, t, "'%s' is not supported in GotA BASIC: a DATA table is a named array; index it as name(i)", name);
    if (!strcmp(name, "input")) errorf(c, t, "'input' is not supported: scripts read the game through host values");
    if (!strcmp(name, "function") || !strcmp(name, "def"))
        errorf(c, t, "'%s' is not supported in GotA BASIC: write a sub ('sub name(args) ... end sub') that sets a "
               "global variable", name);
}

static void ident_statement(Compiler *c)
{
    const BasicToken *t = next(c);
    const char *name = ident_name(c, t);
    if (param_index(c, name) >= 0) {
        assignment(c, t);
        return;
    }
    Sym *s = sym_find(c, name);
    if (!s || s->kind == S_GLOBAL) {
        char word[BASIC_MAX_IDENT + 1];
        snprintf(word, sizeof word, "%s", name);
        statement_word(c, t, word);
        name = ident_name(c, t);
    }
    if (s && s->kind == S_SUB) {
        sub_call(c, t, s);
        return;
    }
    if (s && s->kind == S_FUNC) {
        char fname[BASIC_MAX_IDENT + 1];
        snprintf(fname, sizeof fname, "%s", name);
        if (at(c, T_EQ)) errorf(c, t, "cannot assign to '%s': it is a host function", fname);
        note_host_call(c, t, fname);
        call_args(c, t, fname, s->argc, "function");
        set_pos(c, t);
        emit_host(c, s->argc, s->index);
        emit(c, OP_POP, 0, 0);
        return;
    }
    if (!s && at(c, T_LP)) unknown_call(c, t, name, "sub or array");
    assignment(c, t);
}

static void print_statement(Compiler *c)
{
    int newline = 1;
    while (!end_of_statement(c)) {
        newline = 1;
        const BasicToken *t = peek(c);
        if (t->type == T_STR) {
            next(c);
            if (c->strings_n + t->len + 1 > c->strings_cap) {
                int32_t cap = c->strings_cap ? c->strings_cap * 2 : 256;
                while (cap < c->strings_n + t->len + 1) cap *= 2;
                char *s = realloc(c->strings, (size_t)cap);
                if (!s) errorf(c, t, "out of memory");
                c->strings = s;
                c->strings_cap = cap;
            }
            memcpy(c->strings + c->strings_n, c->src + t->start, (size_t)t->len);
            c->strings[c->strings_n + t->len] = 0;
            set_pos(c, t);
            emit(c, OP_PRINT_STR, 0, c->strings_n);
            c->strings_n += t->len + 1;
        } else {
            set_pos(c, t);
            expr(c);
            emit(c, OP_PRINT_VAL, 0, 0);
        }
        if (at(c, T_COMMA) || at(c, T_SEMI)) {
            next(c);
            newline = 0;
            continue;
        }
        if (!end_of_statement(c)) expected(c, "',', ';' or the end of the print statement");
    }
    if (newline) emit(c, OP_PRINT_NL, 0, 0);
}

/* if cond then ... (block or single line) */
static void if_statement(Compiler *c, const BasicToken *if_tok)
{
    expr(c);
    expect(c, K_THEN, "'then' after the if condition");
    if (!at(c, T_NL) && !at(c, T_EOF)) {   /* single line: statements up to the end of the line */
        int saved = c->single_line;
        c->single_line = 1;
        int32_t jfalse = emit_jz(c, -1);
        for (;;) {
            statement(c);
            if (!at(c, T_COLON)) break;
            next(c);
        }
        if (at(c, K_ELSE)) {
            next(c);
            int32_t jend = emit_jump(c, OP_JMP, -1);
            patch(c, jfalse, label(c));
            for (;;) {
                statement(c);
                if (!at(c, T_COLON)) break;
                next(c);
            }
            patch(c, jend, label(c));
        } else {
            patch(c, jfalse, label(c));
        }
        c->single_line = saved;
        return;
    }
    enter_block(c, if_tok);
    int32_t jfalse = emit_jz(c, -1), jend = -1;
    statements(c);
    for (;;) {
        const BasicToken *t = peek(c);
        if (t->type == K_ELSEIF) {
            next(c);
            jend = chain_join(c, jend, emit_jump(c, OP_JMP, -1));
            patch(c, jfalse, label(c));
            expr(c);
            expect(c, K_THEN, "'then' after the elseif condition");
            if (!at(c, T_NL)) expected(c, "the end of the line after 'elseif ... then'");
            jfalse = emit_jz(c, -1);
            statements(c);
            continue;
        }
        if (t->type == K_ELSE) {
            next(c);
            jend = chain_join(c, jend, emit_jump(c, OP_JMP, -1));
            patch(c, jfalse, label(c));
            jfalse = -1;
            statements(c);
            t = peek(c);
        }
        if (t->type == K_END && peek2(c)->type == K_IF) {
            next(c);
            next(c);
            break;
        }
        {
            char buf[64];
            errorf(c, t, "expected 'end if' to close the if at line %d, found %s", if_tok->line,
                   describe(c, t, buf, sizeof buf));
        }
    }
    int32_t end = label(c);
    patch(c, jfalse, end);
    patch(c, jend, end);
    c->block_depth--;
}

static void while_statement(Compiler *c, const BasicToken *w)
{
    enter_block(c, w);
    int32_t top = label(c);
    expr(c);
    int32_t jexit = emit_jz(c, -1);
    statements(c);
    if (!at(c, K_WEND)) {
        char buf[64];
        errorf(c, peek(c), "expected 'wend' to close the while at line %d, found %s", w->line,
               describe(c, peek(c), buf, sizeof buf));
    }
    next(c);
    emit(c, OP_JMP, 0, top);
    patch(c, jexit, label(c));
    c->block_depth--;
}

static void for_statement(Compiler *c, const BasicToken *f)
{
    enter_block(c, f);
    const BasicToken *vt = expect(c, T_IDENT, "the loop counter after 'for'");
    char var[BASIC_MAX_IDENT + 1];
    snprintf(var, sizeof var, "%s", ident_name(c, vt));
    int local = param_index(c, var);
    Sym *s = local < 0 ? sym_find(c, var) : NULL;
    if (s && s->kind != S_GLOBAL) errorf(c, vt, "the loop counter '%s' is %s, not a variable", var, kind_text(s->kind));
    for (int k = 0; k < c->loops; k++)
        if (c->loop[k].kind == K_FOR && strcmp(c->loop[k].var, var) == 0)
            errorf(c, vt, "nested for loops need different counters: '%s' is already counting", var);
    int32_t index = local >= 0 ? local : global_of(c, vt, var);
    expect(c, T_EQ, "'=' after the loop counter");
    expr(c);
    store_var(c, vt, var);
    expect(c, K_TO, "'to' in the for statement");
    expr(c);
    int32_t end_local = new_local(c, vt), step_local = new_local(c, vt);   /* consecutive */
    emit(c, OP_STOREL, 0, end_local);
    if (at(c, K_STEP)) {
        next(c);
        expr(c);
    } else {
        emit_push(c, (BasicValue){1, 0});
    }
    emit(c, OP_STOREL, 0, step_local);
    if (!at(c, T_NL) && !at(c, T_COLON)) expected(c, "the end of the for statement");
    /* the entry test, once */
    set_pos(c, vt);
    load_var(c, vt, var);
    emit(c, OP_LOADL, 0, end_local);
    emit(c, OP_LOADL, 0, step_local);
    emit(c, OP_FORTEST, 0, 0);
    int32_t jexit = emit_jz(c, -1);
    int32_t top = label(c);
    Loop *L = &c->loop[c->loops++];
    L->kind = K_FOR;
    L->exits = jexit;
    snprintf(L->var, sizeof L->var, "%s", var);
    statements(c);
    /* next [var[, outer...]] */
    if (c->pending_next) {
        c->pending_next = 0;
    } else {
        if (!at(c, K_NEXT)) {
            char buf[64];
            errorf(c, peek(c), "expected 'next' to close the for at line %d, found %s", f->line,
                   describe(c, peek(c), buf, sizeof buf));
        }
        next(c);
    }
    if (at(c, T_IDENT)) {
        const BasicToken *nt = next(c);
        const char *nn = ident_name(c, nt);
        if (strcmp(nn, var) != 0) errorf(c, nt, "'next %s' does not match 'for %s' at line %d", nn, var, f->line);
        if (at(c, T_COMMA)) {
            next(c);
            c->pending_next = 1;
        }
    }
    /* increment, test, loop: one op */
    set_pos(c, vt);
    emit3(c, OP_FORNEXT, (end_local << 1) | (local >= 0), top, index);
    c->loops--;
    patch(c, c->loop[c->loops].exits, label(c));
    c->block_depth--;
}

static void do_statement(Compiler *c, const BasicToken *d)
{
    enter_block(c, d);
    int32_t top = label(c), jexit = -1;
    int start_cond = 0;
    if (at(c, K_WHILE) || at(c, K_UNTIL)) {
        int until = next(c)->type == K_UNTIL;
        start_cond = 1;
        expr(c);
        if (until) {   /* until c: leave when c is true */
            jexit = emit_jump(c, OP_JNZ, -1);
            label(c);
        } else {
            jexit = emit_jz(c, -1);
        }
    }
    Loop *L = &c->loop[c->loops++];
    L->kind = K_DO;
    L->exits = jexit;
    L->var[0] = 0;
    statements(c);
    if (!at(c, K_LOOP)) {
        char buf[64];
        errorf(c, peek(c), "expected 'loop' to close the do at line %d, found %s", d->line,
               describe(c, peek(c), buf, sizeof buf));
    }
    next(c);
    if (at(c, K_WHILE) || at(c, K_UNTIL)) {
        if (start_cond) errorf(c, peek(c), "a do loop has a condition at its start or at its end, not both");
        int until = next(c)->type == K_UNTIL;
        label(c);
        expr(c);
        emit(c, until ? OP_JZ : OP_JNZ, 0, top);
        label(c);
    } else {
        emit(c, OP_JMP, 0, top);
    }
    c->loops--;
    patch(c, c->loop[c->loops].exits, label(c));
    c->block_depth--;
}

static void select_statement(Compiler *c, const BasicToken *s)
{
    enter_block(c, s);
    expect(c, K_CASE, "'case' after 'select'");
    expr(c);
    int32_t sel = new_local(c, s);
    emit(c, OP_STOREL, 0, sel);
    if (!at(c, T_NL)) expected(c, "the end of the line after 'select case ...'");
    while (at(c, T_NL) || at(c, T_COLON)) next(c);
    int32_t jend = -1, jnext = -1;
    int seen_else = 0;
    for (;;) {
        const BasicToken *t = peek(c);
        if (t->type == K_END && peek2(c)->type == K_SELECT) {
            next(c);
            next(c);
            break;
        }
        if (t->type != K_CASE) {
            char buf[64];
            errorf(c, t, "expected 'case' or 'end select' in the select at line %d, found %s", s->line,
                   describe(c, t, buf, sizeof buf));
        }
        if (seen_else) errorf(c, t, "'case else' must be the last case");
        next(c);
        if (jnext >= 0) patch(c, jnext, label(c));
        jnext = -1;
        if (at(c, K_ELSE)) {
            next(c);
            seen_else = 1;
        } else {
            int32_t jbody = -1;
            for (;;) {
                const BasicToken *it = peek(c);
                set_pos(c, it);
                if (at(c, K_IS)) {
                    next(c);
                    int op;
                    switch (peek(c)->type) {
                    case T_EQ: op = OP_EQ; break;
                    case T_NE: op = OP_NE; break;
                    case T_LT: op = OP_LT; break;
                    case T_LE: op = OP_LE; break;
                    case T_GT: op = OP_GT; break;
                    case T_GE: op = OP_GE; break;
                    default: expected(c, "a comparison after 'case is'"); op = OP_EQ;
                    }
                    next(c);
                    emit(c, OP_LOADL, 0, sel);
                    expr(c);
                    emit_binary(c, op);
                } else {
                    emit(c, OP_LOADL, 0, sel);
                    expr(c);
                    if (at(c, K_TO)) {
                        next(c);
                        emit_binary(c, OP_GE);
                        emit(c, OP_LOADL, 0, sel);
                        expr(c);
                        emit_binary(c, OP_LE);
                        emit_binary(c, OP_AND);
                    } else {
                        emit_binary(c, OP_EQ);
                    }
                }
                jbody = chain_join(c, jbody, emit_jump(c, OP_JNZ, -1));
                label(c);
                if (!at(c, T_COMMA)) break;
                next(c);
            }
            jnext = emit_jump(c, OP_JMP, -1);
            patch(c, jbody, label(c));
        }
        statements(c);
        jend = chain_join(c, jend, emit_jump(c, OP_JMP, -1));
    }
    int32_t end = label(c);
    patch(c, jnext, end);
    patch(c, jend, end);
    c->block_depth--;
}

static void exit_statement(Compiler *c, const BasicToken *e)
{
    const BasicToken *t = next(c);
    if (t->type == K_SUB) {
        if (!c->sub) errorf(c, t, "'exit sub' outside a sub");
        set_pos(c, e);
        emit(c, OP_RET, 0, 0);
        return;
    }
    int kind = t->type == K_FOR ? K_FOR : t->type == K_DO ? K_DO : t->type == K_WHILE ? K_WHILE : -1;
    if (kind < 0) {
        c->p--;
        expected(c, "'for', 'do' or 'sub' after 'exit'");
    }
    if (kind == K_WHILE) errorf(c, t, "'exit while' is not supported; use a do while ... loop with 'exit do'");
    for (int k = c->loops - 1; k >= 0; k--) {
        if (c->loop[k].kind == kind) {
            set_pos(c, e);
            c->loop[k].exits = chain_join(c, c->loop[k].exits, emit_jump(c, OP_JMP, -1));
            return;
        }
    }
    errorf(c, t, "'exit %s' outside a %s loop", kind == K_FOR ? "for" : "do", kind == K_FOR ? "for" : "do");
}

static int skip_declaration(Compiler *c)
{
    /* a top-level dim or sub definition of the main program: already handled */
    for (int k = 0; k < c->dim_n; k += 2)
        if (c->p == c->dim_tokens[k]) {
            c->p = c->dim_tokens[k + 1];
            return 1;
        }
    for (int k = 0; k < c->sub_n; k++)
        if (c->p == c->subs[k].first) {
            c->p = c->subs[k].end;
            return 1;
        }
    return 0;
}

static void statement(Compiler *c)
{
    const BasicToken *t = peek(c);
    char buf[64];
    set_pos(c, t);
    switch (t->type) {
    case T_IDENT: ident_statement(c); break;
    case K_LET:
        next(c);
        assignment(c, expect(c, T_IDENT, "a variable after 'let'"));
        break;
    case K_IF: next(c); if_statement(c, t); break;
    case K_WHILE: next(c); while_statement(c, t); break;
    case K_FOR: next(c); for_statement(c, t); break;
    case K_DO: next(c); do_statement(c, t); break;
    case K_SELECT: next(c); select_statement(c, t); break;
    case K_EXIT: next(c); exit_statement(c, t); break;
    case K_PRINT: next(c); print_statement(c); break;
    case K_CALL: {
        next(c);
        const BasicToken *nt = expect(c, T_IDENT, "a sub name after 'call'");
        const char *name = ident_name(c, nt);
        Sym *s = sym_find(c, name);
        if (!s || s->kind != S_SUB) errorf(c, nt, "'call %s': no sub named '%s'", name, name);
        sub_call(c, nt, s);
        break;
    }
    case K_END:
        if (peek2(c)->type == K_SUB || peek2(c)->type == K_IF || peek2(c)->type == K_SELECT) {
            errorf(c, t, "%s %s without a matching opening statement", "'end", peek2(c)->type == K_SUB ? "sub'" :
                   peek2(c)->type == K_IF ? "if'" : "select'");
        }
        next(c);
        emit(c, OP_END, 0, 0);
        break;
    case K_STOP: next(c); emit(c, OP_END, 0, 0); break;
    case K_RETURN:
        next(c);
        if (!c->sub) errorf(c, t, "'return' outside a sub ('gosub' is not supported in GotA BASIC)");
        emit(c, OP_RET, 0, 0);
        break;
    case K_DIM: errorf(c, t, "'dim' is allowed only at the top level, outside subs"); break;
    case K_SUB: errorf(c, t, "a sub cannot be defined inside another sub or block"); break;
    case K_GOTO: case K_GOSUB: case K_ON:
        errorf(c, t, "%s is not supported in GotA BASIC (docs/basic.md lists the statements)",
               describe(c, t, buf, sizeof buf));
        break;
    case K_ELSE: case K_ELSEIF: case K_WEND: case K_NEXT: case K_LOOP: case K_CASE:
        errorf(c, t, "%s without a matching opening statement", describe(c, t, buf, sizeof buf));
        break;
    default:
        errorf(c, t, "expected a statement, found %s", describe(c, t, buf, sizeof buf));
    }
    if (!c->pending_next) end_statement(c);
}

/* Statements until a block terminator (else, elseif, end if/sub/select,
 * wend, next, loop, case) or the end of the file. */
static void statements(Compiler *c)
{
    for (;;) {
        if (c->pending_next) return;
        while (at(c, T_NL) || at(c, T_COLON)) next(c);
        const BasicToken *t = peek(c);
        switch (t->type) {
        case T_EOF: case K_ELSE: case K_ELSEIF: case K_WEND: case K_NEXT: case K_LOOP: case K_CASE: return;
        case K_END:
            if (peek2(c)->type == K_IF || peek2(c)->type == K_SUB || peek2(c)->type == K_SELECT) return;
            break;
        default: break;
        }
        if (c->routine == 0 && c->block_depth == 0 && skip_declaration(c)) continue;
        statement(c);
    }
}

/* ---- declarations ---------------------------------------------------------- */

static void declare_host(Compiler *c)
{
    for (int32_t k = 0; k < c->host->n; k++) {
        const BasicHostSym *h = &c->host->sym[k];
        char name[BASIC_MAX_IDENT + 1];   /* as the lexer reads names: lower case */
        size_t n = 0;
        for (; h->name[n] && n < BASIC_MAX_IDENT; n++)
            name[n] = (char)(h->name[n] >= 'A' && h->name[n] <= 'Z' ? h->name[n] + 32 : h->name[n]);
        name[n] = 0;
        Sym *s = sym_add(c, name, h->kind == BASIC_SYM_CONST ? S_CONST : h->kind == BASIC_SYM_DATA ? S_DATA : S_FUNC);
        s->argc = h->argc;
        s->index = h->id;
        s->value = h->value;
    }
}

static void declare_name_free(Compiler *c, const BasicToken *t, const char *name)
{
    Sym *s = sym_find(c, name);
    if (s) errorf(c, t, "'%s' is already %s", name, kind_text(s->kind));
}

/* An array name of a dim or DATA statement: declared at once (a later error
 * in the statement leaves it declared, so its uses do not report it unknown). */
static int32_t declare_array(Compiler *c, const BasicToken *nt, const char *name)
{
    declare_name_free(c, nt, name);
    if (c->arrays >= BASIC_MAX_ARRAYS) errorf(c, nt, "too many arrays: at most %d", BASIC_MAX_ARRAYS);
    Sym *s = sym_add(c, name, S_ARRAY);
    s->index = c->arrays;
    c->prog->array_base[c->arrays] = c->cells;   /* relative to the arrays; fixed up later */
    c->prog->array_len[c->arrays] = 0;
    snprintf(c->names[BASIC_MAX_GLOBALS + c->arrays], BASIC_MAX_IDENT + 1, "%s", name);
    return c->arrays++;
}

static void array_cells(Compiler *c, int32_t arr, const BasicToken *t, const char *name, int64_t len)
{
    if (len + c->cells > BASIC_MAX_ELEMENTS)
        errorf(c, t, "arrays too large: at most %d elements in all ('%s' needs %lld more)", BASIC_MAX_ELEMENTS, name,
               (long long)len);
    c->prog->array_len[arr] = (int32_t)len;
    c->cells += (int32_t)len;
}

static void end_declaration(Compiler *c, const BasicToken *first, const char *what)
{
    if (!at(c, T_NL) && !at(c, T_COLON) && !at(c, T_EOF)) expected(c, what);
    if (c->dim_n + 2 > (int32_t)(sizeof c->dim_tokens / sizeof c->dim_tokens[0]))
        errorf(c, first, "too many dim and DATA statements");
    c->dim_tokens[c->dim_n++] = (int32_t)(first - c->tok);
    c->dim_tokens[c->dim_n++] = c->p;
}

/* dim name(bound)[, name2(bound2) ...], the tokens from `dim` at c->p */
static void declare_dim(Compiler *c)
{
    const BasicToken *first = next(c);
    for (;;) {
        const BasicToken *nt = expect(c, T_IDENT, "an array name after 'dim'");
        char name[BASIC_MAX_IDENT + 1];
        snprintf(name, sizeof name, "%s", ident_name(c, nt));
        int32_t arr = declare_array(c, nt, name);
        expect(c, T_LP, "'(' and the upper bound after the array name");
        const BasicToken *bt = peek(c);
        if (bt->type != T_INT) expected(c, "an integer upper bound (arrays have literal bounds)");
        next(c);
        expect(c, T_RP, "')' after the upper bound");
        if (is_word(c, peek(c), "as")) errorf(c, peek(c), "'dim ... as' (records) is not supported in GotA BASIC");
        array_cells(c, arr, bt, name, (int64_t)bt->value + 1);
        if (!at(c, T_COMMA)) break;
        next(c);
    }
    end_declaration(c, first, "',' or the end of the dim statement");
}

/* DATA name [AS type] = value, value, ... (the original's typed DATA tables): a
 * read-only array of signed number literals. Without a type each value keeps
 * its kind; int32 (integer, long) takes integers (a decimal must be a whole
 * number); fixed32 (fixed, single, double) makes every value a decimal. */
static void declare_data(Compiler *c)
{
    const BasicToken *first = next(c);
    const BasicToken *nt = expect(c, T_IDENT, "a table name after 'DATA'");
    char name[BASIC_MAX_IDENT + 1];
    snprintf(name, sizeof name, "%s", ident_name(c, nt));
    int32_t arr = declare_array(c, nt, name);
    c->readonly[arr] = 1;
    int type = 0;   /* 0 as written, 1 int32, 2 fixed32 */
    if (is_word(c, peek(c), "as")) {
        next(c);
        const BasicToken *tt = expect(c, T_IDENT, "a type after 'as' (int32 or fixed32)");
        char tn[BASIC_MAX_IDENT + 1];
        token_name(c, tt, tn);
        if (!strcmp(tn, "int32") || !strcmp(tn, "integer") || !strcmp(tn, "long")) type = 1;
        else if (!strcmp(tn, "fixed32") || !strcmp(tn, "fixed") || !strcmp(tn, "single") || !strcmp(tn, "double"))
            type = 2;
        else if (strcmp(tn, "number") != 0)
            errorf(c, tt, "unknown DATA type '%s': use int32 (integers) or fixed32 (Q16.16 decimals)", tn);
    }
    expect(c, T_EQ, "'=' and the values after the DATA table's name");
    int32_t n = 0;
    for (;;) {
        const BasicToken *st = peek(c);
        int neg = 0;
        if (st->type == T_MINUS || st->type == T_PLUS) {
            neg = st->type == T_MINUS;
            next(c);
        }
        const BasicToken *vt = peek(c);
        if (vt->type != T_INT && vt->type != T_FIXED) expected(c, "a number (DATA values are number literals)");
        next(c);
        BasicValue v = {vt->value, vt->type == T_FIXED};
        if (neg) {
            if (v.fx || v.v != 0) v.v = -v.v;   /* the literal's magnitude fits; -2147483648 is not a literal */
        }
        if (type == 1 && v.fx) {
            int32_t iv;
            if (basic_to_int(v, &iv) != BASIC_OK)
                errorf(c, vt, "DATA %s is int32: %.*s is not a whole number", name, vt->len, c->src + vt->start);
            v = (BasicValue){iv, 0};
        }
        if (type == 2 && !v.fx) {
            if (v.v < -32768 || v.v > 32767)
                errorf(c, vt, "DATA %s is fixed32: %s%.*s does not fit a decimal (-32768 .. 32767)", name, neg ? "-" : "",
                       vt->len, c->src + vt->start);
            v = (BasicValue){v.v * BASIC_FX_ONE, 1};
        }
        if (c->cells + n + 1 > BASIC_MAX_ELEMENTS)
            errorf(c, vt, "arrays too large: at most %d elements in all (DATA %s)", BASIC_MAX_ELEMENTS, name);
        if (!c->init && !(c->init = calloc(BASIC_MAX_ELEMENTS, sizeof *c->init))) errorf(c, vt, "out of memory");
        c->init[c->cells + n] = v;
        n++;
        if (!at(c, T_COMMA)) break;
        next(c);
    }
    array_cells(c, arr, nt, name, n);
    end_declaration(c, first, "',' and another value, or the end of the DATA statement");
}

/* sub name(params): its header at token i; registers the sub, body at c->p */
static void declare_sub(Compiler *c, int32_t i)
{
    if (c->sub_n + 1 >= BASIC_MAX_ROUTINES)
        errorf(c, &c->tok[i], "too many subs: at most %d routines, the main program included", BASIC_MAX_ROUTINES);
    SubDecl *d = &c->subs[c->sub_n];
    memset(d, 0, sizeof *d);
    d->first = i;
    d->broken = 1;
    c->p = i + 1;
    const BasicToken *nt = expect(c, T_IDENT, "a name after 'sub'");
    char name[BASIC_MAX_IDENT + 1];
    snprintf(name, sizeof name, "%s", ident_name(c, nt));
    declare_name_free(c, nt, name);
    Sym *s = sym_add(c, name, S_SUB);
    s->index = c->sub_n + 1;
    snprintf(c->prog->routine[c->sub_n + 1].name, BASIC_MAX_IDENT + 1, "%s", name);
    c->sub_n++;
    if (at(c, T_LP)) {
        next(c);
        while (!at(c, T_RP)) {
            const BasicToken *pt = expect(c, T_IDENT, "a parameter name");
            const char *pn = ident_name(c, pt);
            Sym *ps = sym_find(c, pn);
            if (ps && ps->kind != S_GLOBAL && ps->kind != S_NONE)
                errorf(c, pt, "parameter '%s' is already %s", pn, kind_text(ps->kind));
            for (int k = 0; k < d->params; k++)
                if (strcmp(d->param[k], pn) == 0) errorf(c, pt, "parameter '%s' appears twice", pn);
            if (d->params >= BASIC_MAX_PARAMS) errorf(c, pt, "too many parameters: at most %d per sub", BASIC_MAX_PARAMS);
            snprintf(d->param[d->params++], BASIC_MAX_IDENT + 1, "%s", pn);
            if (!at(c, T_COMMA)) break;
            next(c);
        }
        expect(c, T_RP, "')' after the parameters");
    }
    if (!at(c, T_NL) && !at(c, T_EOF)) expected(c, "the end of the line after the sub header");
    d->body = c->p;
    d->broken = 0;
    c->prog->routine[c->sub_n].params = d->params;
}

/* A DATA statement starts at token i: `data name =` or `data name as`. */
static int data_statement(const Compiler *c, int32_t i)
{
    return i + 2 < c->ntok && is_word(c, &c->tok[i], "data") && c->tok[i + 1].type == T_IDENT &&
           (c->tok[i + 2].type == T_EQ || is_word(c, &c->tok[i + 2], "as"));
}

enum { UNIT_SUB, UNIT_DIM, UNIT_DATA };

/* One declaration under its own error handler: 1 when it compiled. */
static int declare_unit(Compiler *c, int kind, int32_t i)
{
    jmp_buf here, *outer = c->jump;
    c->jump = &here;
    if (setjmp(here)) {
        c->jump = outer;
        record_error(c);
        return 0;
    }
    c->p = i;
    if (kind == UNIT_SUB) declare_sub(c, i);
    else if (kind == UNIT_DIM) declare_dim(c);
    else declare_data(c);
    c->jump = outer;
    return 1;
}

/* The end of the statement that starts at token i. */
static int32_t statement_end(const Compiler *c, int32_t i)
{
    while (i < c->ntok && c->tok[i].type != T_NL && c->tok[i].type != T_COLON && c->tok[i].type != T_EOF) i++;
    return i;
}

static void declare_subs_and_dims(Compiler *c)
{
    int32_t in_sub = -1;
    for (int32_t i = 0; i < c->ntok; i++) {
        const BasicToken *t = &c->tok[i];
        if (!statement_start(c, i)) continue;
        if (t->type == K_SUB && in_sub >= 0) {
            c->msg_line = t->line;
            c->msg_col = t->col;
            snprintf(c->msg, sizeof c->msg, "a sub cannot be defined inside another sub");
            record_error(c);
            continue;
        }
        if (t->type == K_SUB) {
            int32_t before = c->sub_n;
            int ok = declare_unit(c, UNIT_SUB, i);
            if (c->sub_n == before) continue;   /* no name: its body is compiled as main code */
            in_sub = c->sub_n - 1;
            if (ok) i = c->p - 1;
            continue;
        }
        if (t->type == K_END && i + 1 < c->ntok && c->tok[i + 1].type == K_SUB) {
            if (in_sub < 0) {
                c->msg_line = t->line;
                c->msg_col = t->col;
                snprintf(c->msg, sizeof c->msg, "'end sub' without a matching 'sub'");
                record_error(c);
            } else {
                c->subs[in_sub].end = i + 2;
                in_sub = -1;
            }
            i++;
            continue;
        }
        if (in_sub >= 0) continue;
        int kind = t->type == K_DIM ? UNIT_DIM : data_statement(c, i) ? UNIT_DATA : -1;
        if (kind < 0) continue;
        if (declare_unit(c, kind, i)) {
            i = c->p - 1;
        } else {   /* skip the broken statement, main code skips it too */
            int32_t e = statement_end(c, i);
            if (c->dim_n + 2 <= (int32_t)(sizeof c->dim_tokens / sizeof c->dim_tokens[0])) {
                c->dim_tokens[c->dim_n++] = i;
                c->dim_tokens[c->dim_n++] = e;
            }
            i = e - 1;
        }
    }
    if (in_sub >= 0) {
        const BasicToken *t = &c->tok[c->subs[in_sub].first];
        c->msg_line = t->line;
        c->msg_col = t->col;
        snprintf(c->msg, sizeof c->msg, "sub '%s' has no 'end sub'", c->prog->routine[in_sub + 1].name);
        record_error(c);
        c->subs[in_sub].broken = 1;
        c->subs[in_sub].end = c->ntok - 1;
    }
}

static void compile_routine(Compiler *c, int32_t r, const SubDecl *d)
{
    c->routine = r;
    c->sub = d;
    c->locals = d ? d->params : 0;
    c->depth = 0;
    c->block_depth = 0;
    c->loops = 0;
    c->pending_next = 0;
    c->expr_depth = 0;
    c->single_line = 0;
    c->p = d ? d->body : 0;
    set_pos(c, peek(c));
    c->prog->routine[r].entry = c->n;
    c->meter_at = -1;
    label(c);
    statements(c);
    if (c->pending_next) expected(c, "a loop counter of an open for loop after ','");
    const BasicToken *t = peek(c);
    if (d) {
        if (!(t->type == K_END && peek2(c)->type == K_SUB) || c->p + 2 != d->end) {
            char buf[64];
            errorf(c, t, "expected 'end sub' to close sub '%s', found %s", c->prog->routine[r].name,
                   describe(c, t, buf, sizeof buf));
        }
        set_pos(c, t);
        emit(c, OP_RET, 0, 0);
    } else {
        if (t->type != T_EOF) {
            char buf[64];
            if (t->type == K_END)
                errorf(c, t, "'end %s' without a matching opening statement",
                       peek2(c)->type == K_IF ? "if" : peek2(c)->type == K_SUB ? "sub" : "select");
            errorf(c, t, "%s without a matching opening statement", describe(c, t, buf, sizeof buf));
        }
        emit(c, OP_END, 0, 0);
    }
    c->prog->routine[r].locals = c->locals;
    if (c->locals > c->prog->max_locals) c->prog->max_locals = c->locals;
}

/* Meters: each charges the counted ops up to the next meter. */
static void fill_meters(Compiler *c)
{
    int32_t meter = -1, count = 0, total = 0;
    for (int32_t i = 0; i < c->n; i++) {
        const BasicIns *ins = &c->code[i];
        if (ins->op == OP_METER) {
            if (meter >= 0) c->code[meter].b = count;
            meter = i;
            count = 0;
            continue;
        }
        count += op_counted(ins);
        total += op_counted(ins);
    }
    if (meter >= 0) c->code[meter].b = count;
    c->prog->counted = total;
}

/* One routine under its own error handler. */
static void routine_unit(Compiler *c, int32_t r, const SubDecl *d)
{
    jmp_buf here, *outer = c->jump;
    c->jump = &here;
    if (setjmp(here)) {
        c->jump = outer;
        record_error(c);
        return;
    }
    compile_routine(c, r, d);
    c->jump = outer;
}

/* Everything that may fail with errorf: each declaration and each routine
 * under its own handler, the rest under guarded's. */
static void compile_body(Compiler *c)
{
    int32_t el = 1, ec = 1;
    char msg[256];
    if (basic_lex(c->src, c->len, &c->tok, &c->ntok, msg, sizeof msg, &el, &ec) != 0) {
        BasicToken t = {0};
        t.line = el;
        t.col = ec;
        errorf(c, &t, "%s", msg);
    }
    declare_host(c);
    for (int32_t k = 0; k < c->host->n; k++)
        if (c->host->sym[k].kind == BASIC_SYM_FUNC && c->host->sym[k].id >= 0 && c->host->sym[k].id < 256)
            c->prog->host_cost[c->host->sym[k].id] = (int16_t)c->host->sym[k].value;
    declare_subs_and_dims(c);
    c->prog->routines = c->sub_n + 1;
    snprintf(c->prog->routine[0].name, BASIC_MAX_IDENT + 1, "(main)");
    for (int32_t k = 0; k < c->sub_n; k++)
        if (!c->subs[k].broken) routine_unit(c, k + 1, &c->subs[k]);
    routine_unit(c, 0, NULL);
    if (!c->have_err) fill_meters(c);
}

static int guarded(Compiler *c)
{
    jmp_buf here;
    c->jump = &here;
    if (setjmp(here)) {
        record_error(c);
        return GOTA_ERR_RANGE;
    }
    compile_body(c);
    return c->have_err ? GOTA_ERR_RANGE : GOTA_OK;
}

/* ---- the entry points ------------------------------------------------------- */
void basic_program_retain(const BasicProgram *p)
{
    if (p) atomic_fetch_add(&((BasicProgram *)p)->refs, 1);
}

void basic_program_release(const BasicProgram *p)
{
    BasicProgram *q = (BasicProgram *)p;
    if (!q || atomic_fetch_sub(&q->refs, 1) != 1) return;
    free(q->code);
    free(q->pos);
    free(q->cell_name);
    free(q->strings);
    free(q->source);
    free(q->init);
    free(q);
}

int basic_compile(const char *src, int64_t len, const char *name, const BasicHostTable *host, BasicProgram **out,
                  char *err, size_t errcap)
{
    if (err && errcap) err[0] = 0;
    if (!out) return GOTA_ERR_NULL;
    *out = NULL;
    if (!src || !host) return GOTA_ERR_NULL;
    if (!name) name = "script";
    if (len < 0) len = (int64_t)strlen(src);
    if (len > BASIC_MAX_SOURCE) {
        if (err && errcap)
            snprintf(err, errcap, "%s:1:1: source too large: %lld bytes, at most %d", name, (long long)len,
                     BASIC_MAX_SOURCE);
        return GOTA_ERR_RANGE;
    }
    Compiler *c = calloc(1, sizeof *c);
    BasicProgram *prog = calloc(1, sizeof *prog);
    Sym *tab = calloc(SYMTAB, sizeof *tab);
    SubDecl *subs = calloc(BASIC_MAX_ROUTINES, sizeof *subs);
    char (*names)[BASIC_MAX_IDENT + 1] = calloc(BASIC_MAX_GLOBALS + BASIC_MAX_ARRAYS, sizeof *names);
    if (!c || !prog || !tab || !subs || !names) {
        free(c); free(prog); free(tab); free(subs); free(names);
        if (err && errcap) snprintf(err, errcap, "%s:1:1: out of memory", name);
        return GOTA_ERR_NOMEM;
    }
    atomic_init(&prog->refs, 1);
    snprintf(prog->name, sizeof prog->name, "%s", name);
    prog->host = host;
    c->src = src;
    c->len = (int32_t)len;
    c->name = prog->name;
    c->host = host;
    c->err = err;
    c->errcap = errcap;
    c->prog = prog;
    c->tab = tab;
    c->subs = subs;
    c->names = names;
    c->blob_cell = -1;
    int code = guarded(c);
    if (code != GOTA_OK) {
        if (err && errcap) snprintf(err, errcap, "%s:%d:%d: %s", prog->name, c->err_line, c->err_col, c->first_err);
        goto done;
    }
    if (prog->counted > BASIC_MAX_CODE) {
        if (err && errcap)
            snprintf(err, errcap, "%s:1:1: program too large: %d compiled instructions, at most %d", prog->name,
                     prog->counted, BASIC_MAX_CODE);
        code = GOTA_ERR_RANGE;
        goto done;
    }
    /* layout: globals, then arrays */
    prog->globals = c->globals;
    prog->arrays = c->arrays;
    for (int32_t k = 0; k < c->arrays; k++) prog->array_base[k] += c->globals;
    prog->cells = c->cells + c->globals;
    prog->max_stack = c->max_depth + 1;
    prog->blob_cell = c->blob_cell;
    prog->uses_draft = c->uses_draft;
    for (int32_t k = 0; k < c->arrays; k++) prog->readonly[k] = c->readonly[k];
    if (c->init) {
        if (!(prog->init = calloc((size_t)prog->cells + 1, sizeof *prog->init))) {
            code = GOTA_ERR_NOMEM;
            goto done;
        }
        memcpy(prog->init + c->globals, c->init, (size_t)c->cells * sizeof *c->init);
    }
    int64_t memory = (int64_t)BASIC_CELL_BYTES *
                     (prog->cells + prog->max_stack + (int64_t)(BASIC_MAX_DEPTH + 1) * (prog->max_locals + 1));
    if (memory > BASIC_MAX_MEMORY) {
        if (err && errcap)
            snprintf(err, errcap, "%s:1:1: program needs %lld bytes of VM memory, at most %d", prog->name,
                     (long long)memory, BASIC_MAX_MEMORY);
        code = GOTA_ERR_RANGE;
        goto done;
    }
    prog->cell_name = calloc((size_t)(prog->globals + prog->arrays + 1), sizeof *prog->cell_name);
    if (!prog->cell_name) {
        code = GOTA_ERR_NOMEM;
        goto done;
    }
    for (int32_t i = 0; i < SYMTAB; i++)
        if (c->tab[i].kind == S_GLOBAL) snprintf(prog->cell_name[c->tab[i].index], BASIC_MAX_IDENT + 1, "%s", c->tab[i].name);
    for (int32_t k = 0; k < c->arrays; k++)
        memcpy(prog->cell_name[prog->globals + k], c->names[BASIC_MAX_GLOBALS + k], BASIC_MAX_IDENT + 1);
    prog->code = c->code;
    prog->pos = c->pos;
    prog->code_n = c->n;
    c->code = NULL;
    c->pos = NULL;
    prog->strings = c->strings;
    prog->strings_n = c->strings_n;
    c->strings = NULL;
    {
        uint64_t h = 0xCBF29CE484222325ull;
        for (int64_t i = 0; i < len; i++) h = (h ^ (uint8_t)src[i]) * 0x100000001B3ull;
        prog->source_hash = h;
        prog->source_bytes = (int32_t)len;
    }
    if (!(prog->source = malloc((size_t)len + 1))) {
        code = GOTA_ERR_NOMEM;
        goto done;
    }
    memcpy(prog->source, src, (size_t)len);
    prog->source[len] = 0;
done:
    free(c->init);
    free(c->tok);
    free(c->code);
    free(c->pos);
    free(c->strings);
    free(c->tab);
    free(c->subs);
    free(c->names);
    free(c);
    if (code != GOTA_OK) {
        basic_program_release(prog);
        return code;
    }
    *out = prog;
    return GOTA_OK;
}
