#!/usr/bin/env bash
# doc_test.sh - make test's entry to tests/doc_test.py: the README's and docs/'s examples run
# and print what they show (docs/README.md, "Examples that are tested").
exec python3 "$(dirname "$0")/doc_test.py" "$@"
