/*
 * basic.h -- GotA BASIC: the compiler and virtual machine of opponent scripts
 * (docs/rules.md section 9; docs/basic.md). Internal; the public face is the
 * "BASIC scripts" section of gota.h.
 *
 * Pipeline: basic_lex.c turns the source into tokens, basic_compile.c parses
 * them and emits bytecode for a stack machine, basic_vm.c runs it, basic_host.c
 * is the GotA host: the read-only values, the functions and the commands of
 * docs/basic.md over the same match state and match_command the C bots use.
 *
 * Numbers: a value is an int32 or a Q16.16 decimal (BasicValue.fx = 1).
 * Integer arithmetic wraps; an operation with a decimal operand converts the
 * integer operand (it must fit -32,768..32,767) and works in Q16.16, products
 * and quotients rounded to nearest with ties toward +infinity; `/` is always
 * decimal, `\` and MOD need exact integers; comparisons are exact and give -1
 * or 0; AND/OR/XOR/EQV/IMP/NOT are bitwise on int32 (decimals rounded to
 * nearest even first).
 *
 * Ownership: a compiled program (GotaBasicProgram) is immutable and
 * reference-counted (atomically: lanes on several threads share one); a VM
 * (BasicVM) is one seat's state: globals, arrays, the call and value stacks,
 * the per-decision counters, its status and its private log. Nothing here is
 * process-global.
 */
#ifndef GOTA_BASIC_H
#define GOTA_BASIC_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "gota.h"

/* ---- limits (docs/rules.md section 9) ---------------------------------- */
#define BASIC_MAX_SOURCE 65536          /* bytes of source */
#define BASIC_MAX_CODE 20000            /* counted instructions of the compiled program */
#define BASIC_MAX_OPS 65536             /* bytecode ops of any kind (operand loads included) */
#define BASIC_MAX_GLOBALS 256           /* scalar variables */
#define BASIC_MAX_ARRAYS 32
#define BASIC_MAX_ELEMENTS 4096         /* array cells, all arrays together */
#define BASIC_MAX_ROUTINES 64           /* subs, the main program included */
#define BASIC_MAX_PARAMS 16             /* per sub */
#define BASIC_MAX_REGISTERS 256         /* locals of one routine: parameters and loop/select temporaries */
#define BASIC_MAX_NESTING 32            /* blocks and expression depth */
#define BASIC_MAX_DEPTH 16              /* sub call depth */
#define BASIC_MAX_MEMORY (2 << 20)      /* logical bytes: 16 per value cell */
#define BASIC_MAX_IDENT 63              /* identifier length */
#define BASIC_DECISION_INSTRUCTIONS 20000
#define BASIC_DECISION_WORK 50000
#define BASIC_PRINT_BYTES 1024          /* per decision */
#define BASIC_PRINT_EVENTS 128          /* per decision */
#define BASIC_LOG_BYTES 8192            /* the private log keeps the newest 8 KiB */
#define BASIC_CELL_BYTES 16

/* ---- values ------------------------------------------------------------ */
typedef struct {
    int32_t v;     /* the int32, or the Q16.16 bits */
    int32_t fx;    /* 1: Q16.16 decimal */
} BasicValue;

#define BASIC_FX_ONE 65536

/* runtime error codes (BasicVM.error_code); 0 = none */
enum {   /* the public GOTA_SCRIPT_ERR_* (gota.h), named for the VM */
    BASIC_OK = GOTA_SCRIPT_ERR_NONE,
    BASIC_ERR_INSTRUCTIONS = GOTA_SCRIPT_ERR_INSTRUCTIONS,   /* instruction limit of one decision */
    BASIC_ERR_WORK = GOTA_SCRIPT_ERR_WORK,                   /* work-unit limit of one decision */
    BASIC_ERR_DEPTH = GOTA_SCRIPT_ERR_DEPTH,                 /* call depth */
    BASIC_ERR_DIVZERO = GOTA_SCRIPT_ERR_DIVZERO,
    BASIC_ERR_RANGE = GOTA_SCRIPT_ERR_RANGE,       /* an integer does not fit a decimal, an array index out of bounds */
    BASIC_ERR_NOT_INTEGER = GOTA_SCRIPT_ERR_NOT_INTEGER,     /* a fraction where an exact integer is needed */
    BASIC_ERR_PRINT = GOTA_SCRIPT_ERR_PRINT,                 /* print limits of one decision */
    BASIC_ERR_HOST = GOTA_SCRIPT_ERR_HOST,                   /* a host function refused its arguments */
    BASIC_ERR_INTERNAL = GOTA_SCRIPT_ERR_INTERNAL
};

/* ---- the host interface --------------------------------------------------
 * The compiler resolves names against a host table; the VM calls the host
 * through BasicHostOps. GotA's table and ops live in basic_host.c. */
enum { BASIC_SYM_CONST = 1, BASIC_SYM_DATA, BASIC_SYM_FUNC };

typedef struct {
    const char *name;   /* any case: the compiler declares it lower-cased, as it reads names */
    int8_t kind;        /* BASIC_SYM_* */
    int8_t argc;        /* functions */
    int16_t id;         /* data: index into BasicVM.data; functions: host function id */
    int32_t value;      /* constants: the int32 value; functions: work cost */
} BasicHostSym;

typedef struct {
    const BasicHostSym *sym;
    int32_t n;
    int32_t data_n;     /* BasicVM.data cells the host samples at each decision */
} BasicHostTable;

struct BasicVM;
typedef struct {
    /* one host data cell, as at the start of the decision: the VM asks for a
     * cell at its first use; a host command first samples every cell not yet
     * sampled (basic_vm_sample_all), so the values are the decision's start */
    BasicValue (*sample)(void *ctx, int cell);
    /* call function `id` with argc values; BASIC_OK and *out, or an error code
     * with a message written by basic_vm_fail_text */
    int (*call)(void *ctx, struct BasicVM *vm, int id, const BasicValue *args, int argc, BasicValue *out);
} BasicHostOps;

/* ---- bytecode ------------------------------------------------------------
 * A stack machine with register-style operand fusion: a binary operation, a
 * compare-and-branch, a one-argument host call, an array index or a store may
 * take its right operand straight from a constant, a global, a local or a
 * host value (mode M_* in the low byte of `a`, the operand in `c`) instead of
 * the stack, and a binary operation may store its result into a global
 * (BASIC_DEST in `a`, the global in `b`). Fusion is done by the compiler's
 * peephole; it never changes what a program computes or how many
 * instructions it is charged. */
enum { M_STACK = 0, M_INT, M_FX, M_GLOBAL, M_LOCAL, M_DATA };
#define BASIC_MODE(a) ((a) & 0xFF)
#define BASIC_DEST 0x100

enum {
    OP_NOP = 0,
    OP_METER,      /* b: counted instructions of the block that starts here */
    OP_PUSH,       /* a: fx flag, b: value */
    OP_LOADG, OP_STOREG,   /* b: global cell */
    OP_LOADL, OP_STOREL,   /* b: local of the current frame */
    OP_SETG,       /* global b = operand (a, c) */
    OP_LOADA,      /* a & 0xFF: array, a >> 8: index mode (c); pops the index when M_STACK, pushes the cell */
    OP_STOREA,     /* a & 0xFF: array, a >> 8: value mode (c); pops the value when M_STACK, then the index */
    OP_DATA,       /* b: host data cell */
    OP_HOST,       /* a: argc, b: host function id; pops the arguments, pushes the result */
    OP_HOST1,      /* a: argument mode, c: operand, b: host function id; pushes the result */
    OP_POP,
    /* binary: right operand (a, c), result pushed or stored (BASIC_DEST: global b) */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_IDIV, OP_MOD,
    OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
    OP_AND, OP_OR, OP_XOR, OP_EQV, OP_IMP,
    OP_NEG, OP_NOT,
    OP_JMP,        /* b: target */
    OP_JZ,         /* b: target; operand (a, c), jumps when zero */
    OP_JNZ,        /* b: target; pops, jumps when not zero */
    OP_JZ_LT, OP_JZ_LE, OP_JZ_GT, OP_JZ_GE, OP_JZ_EQ, OP_JZ_NE,   /* compare with operand (a, c); jump to b when false */
    OP_FORTEST,    /* pops step, end, counter; pushes -1 while the loop runs (step >= 0: counter <= end) */
    OP_FORNEXT,    /* counter (c; a & 1: local, else global) += step (local (a >> 1) + 1); while it has not
                      passed end (local a >> 1), jump to b */
    OP_INCG,       /* global b += immediate a (an int) */
    OP_CALL,       /* b: routine */
    OP_RET,
    OP_END,        /* ends the decision */
    OP_PRINT_STR,  /* b: offset of a NUL-terminated string in the pool */
    OP_PRINT_VAL,  /* pops a value and prints it */
    OP_PRINT_NL,
    OP_COUNT
};

typedef struct {
    uint16_t op;
    int16_t a;
    int32_t b;
    int32_t c;
} BasicIns;

typedef struct {
    char name[BASIC_MAX_IDENT + 1];
    int32_t entry;      /* first op */
    int32_t params;
    int32_t locals;     /* params + temporaries */
} BasicRoutine;

struct GotaBasicProgram {
    atomic_int refs;
    char name[128];                    /* the file name of its diagnostics */
    const BasicHostTable *host;
    BasicIns *code;
    uint32_t *pos;                     /* per op: line << 12 | column (column capped at 4095) */
    int32_t code_n;
    int32_t counted;                   /* counted instructions (limit BASIC_MAX_CODE) */
    int32_t globals;                   /* scalar cells (user variables) */
    int32_t arrays;
    int32_t array_base[BASIC_MAX_ARRAYS], array_len[BASIC_MAX_ARRAYS];
    int32_t cells;                     /* globals + array cells: BasicVM.cells */
    char (*cell_name)[BASIC_MAX_IDENT + 1];   /* per global and per array (cells first, then arrays) */
    BasicRoutine routine[BASIC_MAX_ROUTINES];  /* 0: the main program */
    int32_t routines;
    int32_t max_stack;                 /* value stack depth */
    int32_t max_locals;                /* the largest frame */
    char *strings;                     /* PRINT literals, NUL-terminated */
    int32_t strings_n;
    uint64_t source_hash;              /* FNV-1a of the source */
    int32_t source_bytes;
    char *source;                      /* a copy of the source: replay files carry it (gota_basic_source) */
    int16_t host_cost[256];            /* work cost by host function id */
    BasicValue *init;                  /* initial cells (DATA tables), NULL: all zero */
    uint8_t readonly[BASIC_MAX_ARRAYS];   /* DATA tables */
    int32_t blob_cell;                 /* hidden global counting blobCreate handles, -1 none */
    int32_t uses_draft;                /* calls draftHero: runs at its draft turn (basic_host.c) */
};
typedef struct GotaBasicProgram BasicProgram;

/* ---- the VM of one seat --------------------------------------------------- */
typedef struct { int32_t ret; int32_t base; int32_t routine; } BasicFrame;

typedef struct BasicVM {
    const BasicProgram *prog;          /* retained */
    BasicValue *cells;                 /* globals, then array cells (program cells) */
    BasicValue *stack;                 /* value stack (max_stack) */
    BasicValue *locals;                /* frames (BASIC_MAX_DEPTH + 1) * max_locals */
    BasicValue data[64];               /* host data of the decision (sampled on first use, all before a command) */
    uint64_t sampled;                  /* cells of data[] sampled in this decision */
    BasicFrame frame[BASIC_MAX_DEPTH + 1];
    /* per decision */
    int32_t instructions, work, print_bytes, print_events;
    /* status */
    int32_t disabled;                  /* a runtime error stopped it for the match */
    int32_t error_code;                /* BASIC_ERR_* of that error */
    int32_t error_op;                  /* op index of that error, -1 */
    char error[320];                   /* "file:line:col: message" */
    int64_t decisions;                 /* decisions run */
    int64_t instructions_total;
    int32_t last_action_error;         /* the script's lastActionError(), original numbering */
    int32_t attacks_landed;            /* selfAttacksLanded (host bookkeeping) */
    /* commands issued and refused, by lastActionError code (status only: not hashed) */
    int64_t commands, refused;
    int64_t refused_by[GOTA_SCRIPT_ACTION_ERRORS];
    /* the private log: a ring of the newest BASIC_LOG_BYTES bytes */
    char *log;                         /* allocated on the first write */
    int64_t log_total;                 /* bytes ever written */
    char fail_text[160];               /* host: message of a refused call */
} BasicVM;

/* ---- basic_lex.c ----------------------------------------------------------- */
enum {
    T_EOF = 0, T_NL, T_COLON, T_INT, T_FIXED, T_STR, T_IDENT,
    T_ERROR,       /* a lexical error (value: LEX_*), reported when the parser reaches it */
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_BSLASH, T_CARET,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_LP, T_RP, T_COMMA, T_SEMI,
    /* keywords */
    K_AND, K_OR, K_XOR, K_NOT, K_EQV, K_IMP, K_MOD,
    K_IF, K_THEN, K_ELSE, K_ELSEIF, K_END, K_WHILE, K_WEND, K_FOR, K_TO, K_STEP, K_NEXT,
    K_EXIT, K_SUB, K_CALL, K_RETURN, K_DIM, K_LET, K_PRINT, K_DO, K_LOOP, K_UNTIL,
    K_SELECT, K_CASE, K_IS, K_STOP,
    /* reserved, not supported: a clear error */
    K_GOTO, K_GOSUB, K_ON,
    T_KINDS
};

/* T_ERROR kinds. Words the original's dialect does not reserve (data, restore,
 * read, input, type, as, function, def) are plain names; the compiler gives
 * them their statement meaning by context (`DATA name = ...`) or a clear error
 * (`read x`). */
enum { LEX_STRING_VAR = 1, LEX_LONG_NAME, LEX_LONG_NUMBER, LEX_DECIMAL_RANGE, LEX_INT_RANGE, LEX_UNTERMINATED,
       LEX_BAD_CHAR, LEX_FIELD };

typedef struct {
    uint8_t type;
    int32_t line, col;
    int32_t start, len;     /* source bytes (identifiers lower-cased into the compiler's buffer) */
    int32_t value;          /* T_INT, T_FIXED: the int32 or Q16.16 bits */
} BasicToken;

/* Tokenize the whole source. 0 and *out (malloc'd, ends with T_EOF), or -1
 * with the message in err and its line and column (binary data, out of
 * memory). Other lexical errors become T_ERROR tokens, so the compiler
 * reports the first error in source order. A lone `_` ending a line
 * (spaces and a comment may follow) continues the statement on the next. */
int basic_lex(const char *src, int32_t len, BasicToken **out, int32_t *count, char *err, size_t errcap,
              int32_t *err_line, int32_t *err_col);
const char *basic_token_name(int type);
/* The message of a T_ERROR token. */
void basic_lex_message(const char *src, const BasicToken *t, char *out, size_t cap);

/* ---- basic_compile.c ------------------------------------------------------- */
/* Compile; GOTA_OK and *out (refs 1), or GOTA_ERR_RANGE with
 * "name:line:col: message" in err (NUL-terminated, truncated to errcap). */
int basic_compile(const char *src, int64_t len, const char *name, const BasicHostTable *host, BasicProgram **out,
                  char *err, size_t errcap);
void basic_program_retain(const BasicProgram *p);
void basic_program_release(const BasicProgram *p);

/* ---- basic_vm.c ------------------------------------------------------------ */
BasicVM *basic_vm_new(const BasicProgram *p);
void basic_vm_free(BasicVM *vm);
/* Zero every variable and counter, clear the status and the log. */
void basic_vm_reset(BasicVM *vm);
/* One decision from the top of the program. BASIC_OK, or the error code; an
 * error disables the VM (every later call returns it at once) and is written
 * to vm->error and the log. */
int basic_vm_run(BasicVM *vm, const BasicHostOps *ops, void *ctx);
/* Append text to the private log (ring of the newest bytes). */
void basic_vm_log(BasicVM *vm, const char *text, size_t n);
/* Copy the log (oldest first) into out; the number of bytes it holds. */
int32_t basic_vm_log_copy(const BasicVM *vm, char *out, int32_t cap);
/* Host helper: sample every data cell not sampled yet (before a command). */
void basic_vm_sample_all(BasicVM *vm, const BasicHostOps *ops, void *ctx);
/* Host helper: set the message of a refused call (returned as BASIC_ERR_HOST). */
int basic_vm_fail_text(BasicVM *vm, const char *fmt, ...);
/* A global or array cell by name (tests, tools); NULL when absent. */
const BasicValue *basic_vm_global(const BasicVM *vm, const char *name);
const BasicValue *basic_vm_array(const BasicVM *vm, const char *name, int32_t *len);

/* numbers (basic_vm.c; the compiler folds constants with them) */
int basic_arith(int op, BasicValue a, BasicValue b, BasicValue *out);
int basic_unary(int op, BasicValue a, BasicValue *out);
int basic_to_int(BasicValue a, int32_t *out);          /* exact integer, else BASIC_ERR_NOT_INTEGER */
int basic_truth(BasicValue a);
/* Decimal text: integers as they are, decimals with 5 fractional digits. */
int basic_format(BasicValue a, char *out, size_t cap);
/* A decimal literal (digits, '.', digits, exponent) to Q16.16; 0 or -1 when out of range. */
int basic_parse_fixed(const char *s, int32_t len, int32_t *out);

/* ---- basic_host.c: GotA's host and the script seats of a match ------------ */
struct GotaMatch;
extern const BasicHostTable GOTA_BASIC_HOST;
/* One decision of a script seat (bot phase). */
void script_decide(struct GotaMatch *m, int seat);
/* The seat's draft turn: up to 20 decisions with drafting = 1; the class it
 * picked (free in cls[]), or -1. A program that never calls draftHero is not
 * run in the draft: its first decision is at tick 0, with its hero spawned. */
int script_draft(struct GotaMatch *m, int seat, const int cls[10]);
/* At reset, before the draft: fresh VMs, empty views. */
void scripts_reset(struct GotaMatch *m);
/* After the heroes spawn: count the errors of the draft in the seats' stats. */
void scripts_after_draft(struct GotaMatch *m);
/* In the snapshot phase, before the snapshot is taken: object velocities. */
void scripts_snapshot(struct GotaMatch *m);
/* A script seat's hero landed a basic hit (selfAttacksLanded). */
void scripts_attack_landed(struct GotaMatch *m, int seat);
void scripts_free(struct GotaMatch *m);

#endif
