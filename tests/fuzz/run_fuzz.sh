#!/bin/sh
# run_fuzz.sh FUZZER ARGS...: runs a libFuzzer target for G16_FUZZ_SECONDS
# seconds (from the environment, as `make fuzz` passes it; default 20), so
# the run time is chosen when the tests run, not when they are configured.
seconds=${G16_FUZZ_SECONDS:-20}
case $seconds in
'' | *[!0-9]*)
  echo "run_fuzz.sh: G16_FUZZ_SECONDS must be a whole number of seconds, not '$seconds'" >&2
  exit 2
  ;;
esac
fuzzer=$1
shift
echo "run_fuzz.sh: $fuzzer for $seconds s"
exec "$fuzzer" -max_total_time="$seconds" "$@"
