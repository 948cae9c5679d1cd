# jobs_lib.sh - background jobs, at most N at a time (tests/run_all.sh, sv_tests/run.sh).
# The caller starts each job with `... &` then running=$((running + 1)), and prints the
# results of the jobs that have ended, in its own order, in a function of its own (CALLBACK).
running=0

# job_slot N CALLBACK: while N or more jobs run, waits for one to end and calls CALLBACK.
# job_slot 1 CALLBACK waits for them all.
job_slot() {
    while [ "$running" -ge "$1" ]; do
        wait -n
        running=$((running - 1))
        "$2"
    done
}
