/* loop.c - a check program for `make real` (docs/real-programs.md): a loop of exactly N
 * iterations whose body has one conditional branch, the loop's own.  Two runs with
 * different N differ by exactly the difference in conditional branches (and taken ones),
 * whatever the C library does around it.  Usage: loop N. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long count_up(long n)
{
    long s = 0;
    long i = 0;
    do {
        s += i;
        __asm__ volatile("" : "+r"(s)); /* keeps the body, and the loop, as written */
    } while (++i < n);
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000;
    if (n < 1) {
        fprintf(stderr, "loop: N: expected >= 1\n");
        return 2;
    }
    printf("loop %ld: %ld\n", n, count_up(n));
    return 0;
}
