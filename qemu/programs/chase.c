/* chase.c - a sample program for `make real` (docs/real-programs.md): follows a linked
 * list laid out in a random permutation of N nodes, one cache line (64 bytes) each, for
 * R rounds: every load depends on the one before and lands on an unpredictable line.
 * Usage: chase [N] [R] (default 4096 8). */
#include <stdio.h>
#include <stdlib.h>

typedef struct node {
    struct node *next;
    long pad[7];
} node;

__attribute__((noinline)) static long chase(const node *p, long steps)
{
    long n = 0;
    while (steps-- > 0) {
        p = p->next;
        n += p->pad[0];
    }
    return n;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 4096, rounds = argc > 2 ? atol(argv[2]) : 8;
    if (n < 2 || n > 10000000 || rounds < 1 || rounds > 1000) {
        fprintf(stderr, "chase: usage: chase [N 2..10000000] [R 1..1000]\n");
        return 2;
    }
    node *nodes = calloc((size_t)n, sizeof *nodes);
    long *perm = malloc((size_t)n * sizeof *perm);
    if (!nodes || !perm)
        return 1;
    unsigned long long s = 2463534242ull;
    for (long i = 0; i < n; i++)
        perm[i] = i;
    for (long i = n - 1; i > 0; i--) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        long j = (long)(s % (unsigned long long)(i + 1)), t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (long i = 0; i < n; i++) {
        nodes[perm[i]].next = &nodes[perm[(i + 1) % n]];
        nodes[perm[i]].pad[0] = 1;
    }
    long sum = chase(&nodes[perm[0]], n * rounds);
    printf("chase: %ld nodes, %ld rounds, sum %ld\n", n, rounds, sum);
    return 0;
}
