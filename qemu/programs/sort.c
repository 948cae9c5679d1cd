/* sort.c - a sample program for `make real` (docs/real-programs.md): sorts N pseudo-random
 * numbers with a quicksort that falls back to insertion sort on short runs, then checks
 * the order.  Usage: sort [N] (default 20000). */
#include <stdio.h>
#include <stdlib.h>

static unsigned long long state = 88172645463325252ull;

static unsigned next_rand(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (unsigned)state;
}

__attribute__((noinline)) static void insertion_sort(unsigned *a, long n)
{
    for (long i = 1; i < n; i++) {
        unsigned v = a[i];
        long j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

__attribute__((noinline)) static void quick_sort(unsigned *a, long n)
{
    while (n > 16) {
        unsigned pivot = a[n / 2];
        long i = 0, j = n - 1;
        for (;;) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i >= j)
                break;
            unsigned t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        quick_sort(a, j + 1);
        a += j + 1;
        n -= j + 1;
    }
    insertion_sort(a, n);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000;
    if (n < 1 || n > 10000000) {
        fprintf(stderr, "sort: N: expected 1..10000000\n");
        return 2;
    }
    unsigned *a = malloc((size_t)n * sizeof *a);
    if (!a)
        return 1;
    for (long i = 0; i < n; i++)
        a[i] = next_rand();
    quick_sort(a, n);
    for (long i = 1; i < n; i++)
        if (a[i - 1] > a[i]) {
            fprintf(stderr, "sort: not sorted at %ld\n", i);
            return 1;
        }
    printf("sorted %ld numbers: first %u, last %u\n", n, a[0], a[n - 1]);
    free(a);
    return 0;
}
