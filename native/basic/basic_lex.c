/*
 * basic_lex.c -- the tokenizer of GotA BASIC (basic.h; docs/basic.md).
 *
 * Case-insensitive keywords and identifiers (letters, digits, underscores,
 * starting with a letter or underscore); integer literals (int32, decimal
 * digits); decimal literals with a point or an exponent (E or D): `1.5`, `.25`,
 * `2.`, `1e-3`, held as Q16.16; quoted strings (PRINT only); comments from an
 * apostrophe or REM to the end of the line; newlines end statements, `:`
 * separates statements on one line, a lone `_` at the end of a line continues
 * the statement on the next (as in the original's DATA tables). A NUL byte or
 * a byte outside printable ASCII (outside strings and comments) stops the
 * tokenizer with an error naming its line and column; other mistakes (a
 * string variable, a bad character, a number out of range, an unterminated
 * string, a record field `self.hp`) become T_ERROR tokens and tokenizing goes
 * on, so the compiler reports whichever error comes first in the source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "basic.h"

static const struct { const char *word; int type; } KEYWORDS[] = {
    {"and", K_AND}, {"or", K_OR}, {"xor", K_XOR}, {"not", K_NOT}, {"eqv", K_EQV}, {"imp", K_IMP},
    {"mod", K_MOD}, {"if", K_IF}, {"then", K_THEN}, {"else", K_ELSE}, {"elseif", K_ELSEIF},
    {"end", K_END}, {"while", K_WHILE}, {"wend", K_WEND}, {"for", K_FOR}, {"to", K_TO},
    {"step", K_STEP}, {"next", K_NEXT}, {"exit", K_EXIT}, {"sub", K_SUB}, {"call", K_CALL},
    {"return", K_RETURN}, {"dim", K_DIM}, {"let", K_LET}, {"print", K_PRINT}, {"do", K_DO},
    {"loop", K_LOOP}, {"until", K_UNTIL}, {"select", K_SELECT}, {"case", K_CASE}, {"is", K_IS},
    {"stop", K_STOP}, {"goto", K_GOTO}, {"gosub", K_GOSUB}, {"on", K_ON},
};

static const char *const TOKEN_NAMES[T_KINDS] = {
    [T_EOF] = "end of file", [T_NL] = "end of line", [T_COLON] = "':'", [T_INT] = "a number",
    [T_FIXED] = "a number", [T_STR] = "a string", [T_IDENT] = "a name", [T_PLUS] = "'+'",
    [T_MINUS] = "'-'", [T_STAR] = "'*'", [T_SLASH] = "'/'", [T_BSLASH] = "'\\'", [T_CARET] = "'^'",
    [T_EQ] = "'='", [T_NE] = "'<>'", [T_LT] = "'<'", [T_LE] = "'<='", [T_GT] = "'>'", [T_GE] = "'>='",
    [T_LP] = "'('", [T_RP] = "')'", [T_COMMA] = "','", [T_SEMI] = "';'", [T_ERROR] = "a lexical error",
    [K_AND] = "'and'", [K_OR] = "'or'", [K_XOR] = "'xor'", [K_NOT] = "'not'", [K_EQV] = "'eqv'",
    [K_IMP] = "'imp'", [K_MOD] = "'mod'", [K_IF] = "'if'", [K_THEN] = "'then'", [K_ELSE] = "'else'",
    [K_ELSEIF] = "'elseif'", [K_END] = "'end'", [K_WHILE] = "'while'", [K_WEND] = "'wend'",
    [K_FOR] = "'for'", [K_TO] = "'to'", [K_STEP] = "'step'", [K_NEXT] = "'next'", [K_EXIT] = "'exit'",
    [K_SUB] = "'sub'", [K_CALL] = "'call'", [K_RETURN] = "'return'", [K_DIM] = "'dim'", [K_LET] = "'let'",
    [K_PRINT] = "'print'", [K_DO] = "'do'", [K_LOOP] = "'loop'", [K_UNTIL] = "'until'",
    [K_SELECT] = "'select'", [K_CASE] = "'case'", [K_IS] = "'is'", [K_STOP] = "'stop'",
    [K_GOTO] = "'goto'", [K_GOSUB] = "'gosub'", [K_ON] = "'on'",
};

const char *basic_token_name(int type)
{
    return type >= 0 && type < T_KINDS && TOKEN_NAMES[type] ? TOKEN_NAMES[type] : "a token";
}

void basic_lex_message(const char *src, const BasicToken *t, char *out, size_t cap)
{
    int n = t->len < 40 ? t->len : 40;
    const char *at = src + t->start;
    switch (t->value) {
    case LEX_STRING_VAR:
        snprintf(out, cap, "'%.*s': string variables (names ending in '$') are not supported in GotA BASIC", n, at);
        break;
    case LEX_LONG_NAME: snprintf(out, cap, "name longer than 63 characters"); break;
    case LEX_LONG_NUMBER: snprintf(out, cap, "number longer than 128 characters"); break;
    case LEX_DECIMAL_RANGE:
        snprintf(out, cap, "decimal number %.*s out of range: decimals lie in -32768 .. 32767.99998", n, at);
        break;
    case LEX_INT_RANGE:
        snprintf(out, cap, "integer %.*s out of range: integers lie in -2147483647 .. 2147483647", n, at);
        break;
    case LEX_UNTERMINATED: snprintf(out, cap, "unterminated string: expected '\"' before the end of the line"); break;
    case LEX_BAD_CHAR: snprintf(out, cap, "unexpected character '%c'", *at); break;
    case LEX_FIELD:
        snprintf(out, cap, "'%.*s': record fields are not supported; gota-arena implements the original's plain host "
                 "API (selfHp, objectX(i), ...), not its '@gota-structures' records", n, at);
        break;
    default: snprintf(out, cap, "lexical error"); break;
    }
}

static int is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

static int keyword(const char *s, int32_t n)
{
    for (size_t k = 0; k < sizeof KEYWORDS / sizeof KEYWORDS[0]; k++) {
        const char *w = KEYWORDS[k].word;
        int32_t i = 0;
        while (i < n && w[i] && lower((unsigned char)s[i]) == w[i]) i++;
        if (i == n && w[i] == 0) return KEYWORDS[k].type;
    }
    return T_IDENT;
}

/* Q16.16 of a decimal literal: digits with at most one point, then an
 * optional exponent. The value is scaled exactly in integers: up to nine
 * fractional digits are kept, then the magnitude is rounded to the nearest
 * 1/65536 (halves up). Returns -1 when the magnitude reaches 32768. */
int basic_parse_fixed(const char *s, int32_t len, int32_t *out)
{
    char digits[160];
    int nd = 0, point = -1, i = 0, exp = 0, esign = 1;
    while (i < len && (is_digit((unsigned char)s[i]) || s[i] == '.')) {
        if (s[i] == '.') point = nd;
        else if (nd < 150) digits[nd++] = s[i];
        else return -1;
        i++;
    }
    if (point < 0) point = nd;
    if (i < len && (lower((unsigned char)s[i]) == 'e' || lower((unsigned char)s[i]) == 'd')) {
        i++;
        if (i < len && (s[i] == '+' || s[i] == '-')) esign = s[i++] == '-' ? -1 : 1;
        while (i < len && is_digit((unsigned char)s[i])) {
            exp = exp * 10 + (s[i++] - '0');
            if (exp > 512) return -1;
        }
    }
    point += esign * exp;   /* digits[0..point) is the integer part */
    int64_t ip = 0;
    for (int k = 0; k < point; k++) {
        ip = ip * 10 + (k < nd ? digits[k] - '0' : 0);
        if (ip >= 32768) return -1;
    }
    /* nine fractional digits: f / 10^9 */
    int64_t f = 0;
    for (int k = 0; k < 9; k++) {
        int idx = point + k;
        f = f * 10 + (idx >= 0 && idx < nd ? digits[idx] - '0' : 0);
    }
    int64_t q = ip * 65536 + (f * 65536 + 500000000) / 1000000000;
    if (q >= (int64_t)32768 * 65536) return -1;
    *out = (int32_t)q;
    return 0;
}

static int fail(char *err, size_t cap, int32_t *el, int32_t *ec, int32_t line, int32_t col, const char *msg,
                int byte)
{
    if (byte >= 0) snprintf(err, cap, "%s 0x%02X", msg, (unsigned)byte);
    else snprintf(err, cap, "%s", msg);
    *el = line;
    *ec = col;
    return -1;
}

int basic_lex(const char *src, int32_t len, BasicToken **out, int32_t *count, char *err, size_t errcap,
              int32_t *el, int32_t *ec)
{
    int32_t cap = 256, n = 0;
    BasicToken *tok = malloc((size_t)cap * sizeof *tok);
    if (!tok) return fail(err, errcap, el, ec, 1, 1, "out of memory", -1);
    int32_t i = 0, line = 1, line_start = 0;
    for (;;) {
        if (n + 2 > cap) {
            cap *= 2;
            BasicToken *t2 = realloc(tok, (size_t)cap * sizeof *tok);
            if (!t2) {
                free(tok);
                return fail(err, errcap, el, ec, line, 1, "out of memory", -1);
            }
            tok = t2;
        }
        /* spaces */
        while (i < len && (src[i] == ' ' || src[i] == '\t')) i++;
        int32_t col = i - line_start + 1;
        BasicToken *t = &tok[n];
        memset(t, 0, sizeof *t);
        t->line = line;
        t->col = col;
        t->start = i;
        if (i >= len) {
            t->type = T_EOF;
            n++;
            break;
        }
        unsigned char c = (unsigned char)src[i];
        if (c == '\n' || c == '\r') {
            i += (c == '\r' && i + 1 < len && src[i + 1] == '\n') ? 2 : 1;
            t->type = T_NL;
            line++;
            line_start = i;
            n++;
            continue;
        }
        if (c == '\'') {   /* comment: skip to the end of the line (any bytes but NUL) */
            while (i < len && src[i] != '\n' && src[i] != '\r') {
                if (src[i] == 0) {
                    free(tok);
                    return fail(err, errcap, el, ec, line, i - line_start + 1, "binary data: byte", 0);
                }
                i++;
            }
            continue;
        }
        if (is_alpha(c)) {
            int32_t s = i;
            while (i < len && (is_alpha((unsigned char)src[i]) || is_digit((unsigned char)src[i]))) i++;
            if (i - s == 1 && src[s] == '_') {   /* a lone `_` ending the line continues the statement */
                int32_t k = i;
                while (k < len && (src[k] == ' ' || src[k] == '\t')) k++;
                if (k < len && src[k] == '\'')
                    while (k < len && src[k] != '\n' && src[k] != '\r' && src[k] != 0) k++;
                if (k >= len || src[k] == '\n' || src[k] == '\r') {
                    if (k < len) k += (src[k] == '\r' && k + 1 < len && src[k + 1] == '\n') ? 2 : 1;
                    i = k;
                    line++;
                    line_start = i;
                    continue;
                }
            }
            t->len = i - s;
            if (i < len && src[i] == '$') {
                t->type = T_ERROR;
                t->value = LEX_STRING_VAR;
                t->len = ++i - s;
                n++;
                continue;
            }
            if (i + 1 < len && src[i] == '.' && is_alpha((unsigned char)src[i + 1])) {   /* self.hp */
                i++;
                while (i < len && (is_alpha((unsigned char)src[i]) || is_digit((unsigned char)src[i]) || src[i] == '.')) i++;
                t->type = T_ERROR;
                t->value = LEX_FIELD;
                t->len = i - s;
                n++;
                continue;
            }
            if (i - s > BASIC_MAX_IDENT) {
                t->type = T_ERROR;
                t->value = LEX_LONG_NAME;
                n++;
                continue;
            }
            int kw = keyword(src + s, i - s);
            if (kw == T_IDENT && i - s == 3 && lower((unsigned char)src[s]) == 'r' &&
                lower((unsigned char)src[s + 1]) == 'e' && lower((unsigned char)src[s + 2]) == 'm') {
                while (i < len && src[i] != '\n' && src[i] != '\r') {
                    if (src[i] == 0) {
                        free(tok);
                        return fail(err, errcap, el, ec, line, i - line_start + 1, "binary data: byte", 0);
                    }
                    i++;
                }
                continue;
            }
            t->type = (uint8_t)kw;
            n++;
            continue;
        }
        if (is_digit(c) || (c == '.' && i + 1 < len && is_digit((unsigned char)src[i + 1]))) {
            int32_t s = i;
            int fixed = 0;
            while (i < len && (is_digit((unsigned char)src[i]) || src[i] == '.')) {
                if (src[i] == '.') {
                    if (fixed) break;
                    fixed = 1;
                }
                i++;
            }
            if (i < len && (lower((unsigned char)src[i]) == 'e' || lower((unsigned char)src[i]) == 'd')) {
                int32_t k = i + 1;
                if (k < len && (src[k] == '+' || src[k] == '-')) k++;
                if (k < len && is_digit((unsigned char)src[k])) {
                    fixed = 1;
                    i = k;
                    while (i < len && is_digit((unsigned char)src[i])) i++;
                }
            }
            t->len = i - s;
            if (i - s > 128) {
                t->type = T_ERROR;
                t->value = LEX_LONG_NUMBER;
            } else if (fixed) {
                t->type = T_FIXED;
                if (basic_parse_fixed(src + s, i - s, &t->value) != 0) {
                    t->type = T_ERROR;
                    t->value = LEX_DECIMAL_RANGE;
                }
            } else {
                int64_t v = 0;
                for (int32_t k = s; k < i; k++) {
                    v = v * 10 + (src[k] - '0');
                    if (v > 2147483648LL) break;
                }
                t->type = T_INT;
                t->value = (int32_t)v;
                if (v > 2147483647LL) {
                    t->type = T_ERROR;
                    t->value = LEX_INT_RANGE;
                }
            }
            n++;
            continue;
        }
        if (c == '"') {
            int32_t s = ++i;
            while (i < len && src[i] != '"' && src[i] != '\n' && src[i] != '\r') {
                if (src[i] == 0) {
                    free(tok);
                    return fail(err, errcap, el, ec, line, i - line_start + 1, "binary data: byte", 0);
                }
                i++;
            }
            if (i >= len || src[i] != '"') {
                t->type = T_ERROR;
                t->value = LEX_UNTERMINATED;
                t->start = s - 1;
                t->len = i - s + 1;
                n++;
                continue;
            }
            t->type = T_STR;
            t->start = s;
            t->len = i - s;
            i++;
            n++;
            continue;
        }
        int type = -1, w = 1;
        switch (c) {
        case '+': type = T_PLUS; break;
        case '-': type = T_MINUS; break;
        case '*': type = T_STAR; break;
        case '/': type = T_SLASH; break;
        case '\\': type = T_BSLASH; break;
        case '^': type = T_CARET; break;
        case '=': type = T_EQ; break;
        case '(': type = T_LP; break;
        case ')': type = T_RP; break;
        case ',': type = T_COMMA; break;
        case ';': type = T_SEMI; break;
        case ':': type = T_COLON; break;
        case '<':
            if (i + 1 < len && src[i + 1] == '>') type = T_NE, w = 2;
            else if (i + 1 < len && src[i + 1] == '=') type = T_LE, w = 2;
            else type = T_LT;
            break;
        case '>':
            if (i + 1 < len && src[i + 1] == '=') type = T_GE, w = 2;
            else type = T_GT;
            break;
        default: break;
        }
        if (type < 0) {
            if (c == 0 || c >= 0x80 || c < 0x20) {
                free(tok);
                return fail(err, errcap, el, ec, line, col, "binary data: byte", c);
            }
            type = T_ERROR;
            t->value = LEX_BAD_CHAR;
        }
        t->type = (uint8_t)type;
        t->len = w;
        i += w;
        n++;
    }
    *out = tok;
    *count = n;
    return 0;
}
