/* interp.c - a sample program for `make real` (docs/real-programs.md): a small bytecode
 * interpreter whose dispatch is a switch, running a program that counts primes below N by
 * trial division: many short, data-dependent branches.  Usage: interp [N] (default 2000). */
#include <stdio.h>
#include <stdlib.h>

enum op { PUSH, LOAD, STORE, ADD, SUB, MUL, MOD, LT, JZ, JMP, DUP, POP, HALT };

typedef struct insn {
    enum op op;
    long arg;
} insn;

/* vars: 0 n, 1 i, 2 d, 3 count, 4 prime */
static const insn program[] = {
    /* 0 */ {PUSH, 2}, {STORE, 1},
    /* 2 loop i */ {LOAD, 1}, {LOAD, 0}, {LT, 0}, {JZ, 31},
    /* 6 */ {PUSH, 1}, {STORE, 4}, {PUSH, 2}, {STORE, 2},
    /* 10 loop d: while d*d <= i, i.e. !(i < d*d) */ {LOAD, 1}, {LOAD, 2}, {DUP, 0}, {MUL, 0}, {LT, 0}, {PUSH, 1},
    /* 16 */ {SUB, 0}, {JZ, 27},
    /* 18 */ {LOAD, 1}, {LOAD, 2}, {MOD, 0}, {JZ, 25}, {LOAD, 2}, {JMP, 32},
    /* 24 (unused) */ {HALT, 0},
    /* 25 not prime */ {PUSH, 0}, {JMP, 40},
    /* 27 end d */ {LOAD, 3}, {LOAD, 4}, {ADD, 0}, {JMP, 35},
    /* 31 */ {HALT, 0},
    /* 32 d++ */ {PUSH, 1}, {ADD, 0}, {JMP, 37},
    /* 35 */ {STORE, 3}, {JMP, 43},
    /* 37 */ {STORE, 2}, {JMP, 10}, {HALT, 0},
    /* 40 */ {STORE, 4}, {JMP, 27}, {HALT, 0},
    /* 43 i++ */ {LOAD, 1}, {PUSH, 1}, {ADD, 0}, {STORE, 1}, {JMP, 2},
};

__attribute__((noinline)) static long run(const insn *code, long *vars)
{
    long stack[64];
    int sp = 0;
    long steps = 0;
    for (long pc = 0;; steps++) {
        const insn *in = &code[pc++];
        switch (in->op) {
        case PUSH: stack[sp++] = in->arg; break;
        case LOAD: stack[sp++] = vars[in->arg]; break;
        case STORE: vars[in->arg] = stack[--sp]; break;
        case ADD: sp--; stack[sp - 1] += stack[sp]; break;
        case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
        case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
        case MOD: sp--; stack[sp - 1] %= stack[sp]; break;
        case LT: sp--; stack[sp - 1] = stack[sp - 1] < stack[sp]; break;
        case JZ: if (stack[--sp] == 0) pc = in->arg; break;
        case JMP: pc = in->arg; break;
        case DUP: stack[sp] = stack[sp - 1]; sp++; break;
        case POP: sp--; break;
        case HALT: return steps;
        }
    }
}

int main(int argc, char **argv)
{
    long vars[5] = {argc > 1 ? atol(argv[1]) : 2000, 0, 0, 0, 0};
    if (vars[0] < 2 || vars[0] > 100000000) {
        fprintf(stderr, "interp: N: expected 2..100000000\n");
        return 2;
    }
    long steps = run(program, vars);
    printf("interp: %ld primes below %ld in %ld steps\n", vars[3], vars[0], steps);
    return 0;
}
