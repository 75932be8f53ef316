#!/usr/bin/env bash
# Man pages from the programs' own --help texts (help2man), so they say
# what the programs do: g16(1) with each command's `g16 COMMAND --help`,
# g16d(8), memwatch(1) with each subcommand's.  Gzipped as Debian installs
# them.  Usage: deploy/manpages.sh BIN_DIR OUT_DIR VERSION
set -euo pipefail
bin=$1 out=$2 version=$3
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# sub_help PROGRAM SUBCOMMAND...: an [EXTRA] section for help2man --include,
# one subsection per subcommand with its --help text as is.
sub_help() {
  local prog=$1
  shift
  {
    printf '[COMMANDS IN DETAIL]\n'
    for c in "$@"; do
      printf '.SS "%s %s"\n.nf\n' "$prog" "$c"
      "$bin/$prog" "$c" --help 2>&1 | sed -e 's/\\/\\e/g' -e 's/^\([.'"'"']\)/\\\&\1/'
      printf '.fi\n'
    done
  } >"$tmp/$prog.h2m"
}

page() { # PROGRAM SECTION SUMMARY [INCLUDE]
  local inc=()
  [ -n "${4:-}" ] && inc=(--include "$4")
  help2man --no-info --no-discard-stderr --version-string "$version" --section "$2" \
    --name "$3" "${inc[@]}" --output "$tmp/$1.$2" "$bin/$1"
  gzip -9n <"$tmp/$1.$2" >"$out/$1.$2.gz"
}

sub_help g16 prove verify export-vk info setup synth check wtns fullprove export client
page g16 1 "Groth16 prover for circom circuits and snarkjs keys" "$tmp/g16.h2m"
page g16d 8 "Groth16 proving daemon (HTTP on a Unix socket)"
sub_help memwatch record summarize plot
page memwatch 1 "record, summarize and plot a process tree's memory" "$tmp/memwatch.h2m"
