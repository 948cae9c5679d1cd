/* matmul.c - a sample program for `make real` (docs/real-programs.md): C = A x B for N x N
 * doubles, in one of two loop orders:
 *   stride   (default) i-j-k: the inner loop walks B down a column, one row (N * 8 bytes)
 *            apart: every access a new cache line once a row is longer than a line;
 *   seq      i-k-j: the inner loop walks B and C along rows, 8 bytes apart.
 * The two run the same multiply-adds; only the order of the addresses differs.
 * Usage: matmul [stride|seq] [N] (default stride 64). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((noinline)) static void multiply_strided(const double *a, const double *b, double *c, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int k = 0; k < n; k++)
                s += a[i * n + k] * b[k * n + j];
            c[i * n + j] = s;
        }
}

__attribute__((noinline)) static void multiply_sequential(const double *a, const double *b, double *c, int n)
{
    memset(c, 0, (size_t)n * n * sizeof *c);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            double r = a[i * n + k];
            for (int j = 0; j < n; j++)
                c[i * n + j] += r * b[k * n + j];
        }
}

int main(int argc, char **argv)
{
    const char *order = argc > 1 ? argv[1] : "stride";
    int n = argc > 2 ? atoi(argv[2]) : 64;
    if ((strcmp(order, "stride") != 0 && strcmp(order, "seq") != 0) || n < 1 || n > 2048) {
        fprintf(stderr, "matmul: usage: matmul [stride|seq] [N 1..2048]\n");
        return 2;
    }
    double *a = malloc((size_t)n * n * sizeof *a), *b = malloc((size_t)n * n * sizeof *b),
           *c = malloc((size_t)n * n * sizeof *c);
    if (!a || !b || !c)
        return 1;
    for (int i = 0; i < n * n; i++) {
        a[i] = (double)(i % 7) - 3.0;
        b[i] = (double)(i % 5) - 2.0;
    }
    if (strcmp(order, "stride") == 0)
        multiply_strided(a, b, c, n);
    else
        multiply_sequential(a, b, c, n);
    double trace = 0;
    for (int i = 0; i < n; i++)
        trace += c[i * n + i];
    printf("matmul %s %d: trace %.1f\n", order, n, trace);
    return 0;
}
