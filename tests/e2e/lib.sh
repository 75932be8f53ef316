# Shared helpers for the end-to-end tests (sourced by the test scripts).
#
# Environment (set by tests/e2e/CMakeLists.txt):
#   G16           path of the g16 binary (build/bin/g16)
#   G16_SNARKJS   path of snarkjs (tools/node_modules/.bin/snarkjs)
#   G16_FIXTURES  the fixtures folder (../shared/fixtures)
#
# Every helper fails the test with a message on stderr; nothing here skips.
set -euo pipefail

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

note() {
  echo "-- $*"
}

# Per-test scratch directory, removed on exit.
: "${G16:?G16 (path of the g16 binary) is not set}"
: "${G16_SNARKJS:?G16_SNARKJS is not set}"
: "${G16_FIXTURES:?G16_FIXTURES is not set}"
T=$(mktemp -d "${TMPDIR:-/tmp}/g16-e2e.XXXXXX")
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT

need_g16() {
  [ -x "$G16" ] || fail "g16 binary not found at $G16 (build it: make)"
}

need_snarkjs() {
  [ -x "$G16_SNARKJS" ] ||
    fail "snarkjs not found at $G16_SNARKJS (install it: make deps, i.e. npm ci in tools/)"
  command -v node >/dev/null 2>&1 || fail "node not found on PATH (install it: make deps)"
}

need_node() {
  command -v node >/dev/null 2>&1 || fail "node not found on PATH (install it: make deps)"
}

# fixture CURVE CIRCUIT: prints the fixture folder, fails if incomplete.
fixture() {
  local d="$G16_FIXTURES/$1/$2" f
  for f in circuit.zkey witness.wtns verification_key.json public.json proof.json; do
    [ -f "$d/$f" ] || fail "fixture file $d/$f is missing (G16_FIXTURES=$G16_FIXTURES)"
  done
  printf '%s\n' "$d"
}

# snarkjs_verify VK PUBLIC PROOF: returns snarkjs' status; its output goes to
# $T/verify.log (printed by the callers on an unexpected result).
snarkjs_verify() {
  local rc=0
  "$G16_SNARKJS" groth16 verify "$1" "$2" "$3" >"$T/verify.log" 2>&1 || rc=$?
  return "$rc"
}

# expect_verify_ok VK PUBLIC PROOF
expect_verify_ok() {
  if ! snarkjs_verify "$@"; then
    cat "$T/verify.log" >&2
    fail "snarkjs groth16 verify rejected $3 (public $2, key $1)"
  fi
  grep -q 'OK' "$T/verify.log" || { cat "$T/verify.log" >&2; fail "snarkjs did not print OK for $3"; }
}

# expect_verify_rejects VK PUBLIC PROOF: snarkjs must reject the proof as a
# proof (not fail for another reason such as a missing or unparsable file).
expect_verify_rejects() {
  if snarkjs_verify "$@"; then
    cat "$T/verify.log" >&2
    fail "snarkjs groth16 verify accepted $3 with $2 but it was tampered with"
  fi
  grep -Eq 'Invalid proof|are not valid' "$T/verify.log" || {
    cat "$T/verify.log" >&2
    fail "snarkjs failed on $3 for an unexpected reason (expected an invalid-proof verdict)"
  }
}

# json_same A B: A and B hold equal JSON values.
json_same() {
  need_node
  node -e '
    const fs = require("fs");
    const [a, b] = process.argv.slice(1).map(f => JSON.parse(fs.readFileSync(f, "utf8")));
    const eq = (x, y) => {
      if (typeof x !== typeof y || Array.isArray(x) !== Array.isArray(y)) return false;
      if (x === null || y === null || typeof x !== "object") return x === y;
      const kx = Object.keys(x), ky = Object.keys(y);
      return kx.length === ky.length && kx.every(k => Object.prototype.hasOwnProperty.call(y, k) && eq(x[k], y[k]));
    };
    process.exit(eq(a, b) ? 0 : 1);
  ' "$1" "$2"
}

# check_proof_shape PROOF CURVE: the proof.json shape snarkjs writes.
check_proof_shape() {
  need_node
  node -e '
    const fs = require("fs");
    const [file, curve] = process.argv.slice(1);
    let p;
    try { p = JSON.parse(fs.readFileSync(file, "utf8")); }
    catch (e) { console.error(file + ": not JSON: " + e.message); process.exit(1); }
    const errs = [];
    const dec = s => typeof s === "string" && /^(0|[1-9][0-9]*)$/.test(s);
    const g1 = (v, n) => Array.isArray(v) && v.length === 3 && dec(v[0]) && dec(v[1]) && v[2] === "1"
      || errs.push(n + " is not [x, y, \"1\"] of decimal strings");
    const fq2 = v => Array.isArray(v) && v.length === 2 && dec(v[0]) && dec(v[1]);
    g1(p.pi_a, "pi_a"); g1(p.pi_c, "pi_c");
    Array.isArray(p.pi_b) && p.pi_b.length === 3 && fq2(p.pi_b[0]) && fq2(p.pi_b[1])
      && p.pi_b[2][0] === "1" && p.pi_b[2][1] === "0"
      || errs.push("pi_b is not [[x0, x1], [y0, y1], [\"1\", \"0\"]] of decimal strings");
    if (p.protocol !== "groth16") errs.push("protocol is " + JSON.stringify(p.protocol) + ", not \"groth16\"");
    if (p.curve !== curve) errs.push("curve is " + JSON.stringify(p.curve) + ", not " + JSON.stringify(curve));
    const keys = Object.keys(p).sort().join(",");
    if (keys !== "curve,pi_a,pi_b,pi_c,protocol") errs.push("keys are " + keys);
    if (errs.length) { console.error(file + ": " + errs.join("; ")); process.exit(1); }
  ' "$1" "$2"
}

# tamper_digit IN OUT FIELD: copy IN to OUT with one digit changed: the last
# digit of the first decimal string after "FIELD" (FIELD "" = the first
# decimal string in the file). Everything else stays byte-identical.
tamper_digit() {
  need_node
  node -e '
    const fs = require("fs");
    const [src, dst, field] = process.argv.slice(1);
    const t = fs.readFileSync(src, "utf8");
    const from = field ? t.indexOf("\"" + field + "\"") : 0;
    if (from < 0) { console.error(src + ": no field " + field); process.exit(1); }
    const re = /"([0-9]+)"/g; re.lastIndex = from + (field ? field.length + 2 : 0);
    const m = re.exec(t);
    if (!m) { console.error(src + ": no decimal string to tamper with"); process.exit(1); }
    const end = m.index + 1 + m[1].length - 1;           // last digit
    const d = String((Number(t[end]) + 1) % 10);
    fs.writeFileSync(dst, t.slice(0, end) + d + t.slice(end + 1));
  ' "$1" "$2" "${3:-}"
  cmp -s "$1" "$2" && fail "tamper_digit left $1 unchanged"
  [ "$(cmp -l "$1" "$2" | wc -l)" -eq 1 ] || fail "tamper_digit changed more than one byte of $1"
}

# ---- binary patching of iden3 files (zkey, wtns): little-endian integers.
u32_at() { od -An -v -t u4 -j "$2" -N 4 "$1" | tr -d ' \n'; }
u64_at() { od -An -v -t u8 -j "$2" -N 8 "$1" | tr -d ' \n'; }

# put_bytes FILE OFFSET HEX: overwrite bytes in place ("7a6b6579" = "zkey").
put_bytes() {
  local esc
  esc=$(printf '%s' "$3" | sed 's/../\\x&/g')
  printf '%b' "$esc" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# le_hex VALUE BYTES: VALUE as BYTES little-endian bytes, in hex.
le_hex() {
  local v=$1 n=$2 out="" i
  for ((i = 0; i < n; i++)); do
    out+=$(printf '%02x' $((v & 255)))
    v=$((v >> 8))
  done
  printf '%s' "$out"
}
put_u32() { put_bytes "$1" "$2" "$(le_hex "$3" 4)"; }
put_u64() { put_bytes "$1" "$2" "$(le_hex "$3" 8)"; }

# section_at FILE ID: prints "HEADER_OFFSET DATA_OFFSET LENGTH" of the first
# section ID of an iden3 binary file (magic, version, count, then sections of
# u32 id, u64 length, data).
section_at() {
  local f=$1 id=$2 size off n i sid len
  size=$(stat -c %s "$f")
  n=$(u32_at "$f" 8)
  off=12
  for ((i = 0; i < n; i++)); do
    sid=$(u32_at "$f" "$off")
    len=$(u64_at "$f" $((off + 4)))
    if [ "$sid" = "$id" ]; then
      printf '%s %s %s\n' "$off" $((off + 12)) "$len"
      return 0
    fi
    off=$((off + 12 + len))
    [ "$off" -le "$size" ] || break
  done
  fail "section $id not found in $f"
}

# ---- running the prover --------------------------------------------------
# run_g16 ARGS...: runs g16 in the empty folder $T/cwd with stdout and stderr
# captured in $T/stdout and $T/stderr; sets RC.
run_g16() {
  need_g16
  mkdir -p "$T/cwd"
  RC=0
  (cd "$T/cwd" && exec "$G16" "$@") >"$T/stdout" 2>"$T/stderr" || RC=$?
}

show_run() {
  echo "--- exit status: $RC" >&2
  echo "--- stdout:" >&2; cat "$T/stdout" >&2
  echo "--- stderr:" >&2; cat "$T/stderr" >&2
}

# prove ZKEY WTNS PROOF PUBLIC [OPTIONS...]: must succeed.
prove() {
  local zkey=$1 wtns=$2 proof=$3 public=$4
  shift 4
  run_g16 prove "$@" "$zkey" "$wtns" "$proof" "$public"
  [ "$RC" -eq 0 ] || { show_run; fail "g16 prove $* $zkey $wtns failed (exit $RC)"; }
  [ -s "$proof" ] || { show_run; fail "g16 prove exited 0 but wrote no $proof"; }
  [ -s "$public" ] || { show_run; fail "g16 prove exited 0 but wrote no $public"; }
}

# dir_listing DIR: everything under DIR (names, and a checksum of each regular
# file), for "nothing left behind, nothing changed" checks.
dir_listing() {
  (cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r f; do
    if [ -f "$f" ] && [ ! -L "$f" ]; then printf '%s %s\n' "$f" "$(cksum <"$f" | tr ' ' :)"
    else printf '%s\n' "$f"; fi
  done)
}

# expect_clean_failure WHAT OFFENDING_PATH ARGS...
#   Runs `g16 ARGS...` and checks the contract for bad input: exit status
#   1..125 (an error, not a crash or a signal), exactly one line on stderr,
#   naming OFFENDING_PATH, and no file left in $T/out (where the tests put
#   PROOF.json and PUBLIC.json) nor in the working folder $T/cwd.
#   $T/out may hold files made before the run; they must be left unchanged.
expect_clean_failure() {
  local what=$1 offending=$2
  shift 2
  mkdir -p "$T/out" "$T/cwd"
  local before_out before_cwd
  before_out=$(dir_listing "$T/out")
  before_cwd=$(dir_listing "$T/cwd")
  run_g16 "$@"
  if [ "$RC" -eq 0 ]; then show_run; fail "$what: g16 exited 0"; fi
  if [ "$RC" -gt 125 ]; then show_run; fail "$what: g16 crashed or was killed (exit $RC)"; fi
  local lines
  lines=$(wc -l <"$T/stderr")
  if [ "$lines" -ne 1 ] || [ -n "$(tail -c 1 "$T/stderr")" ] || ! grep -q '[^[:space:]]' "$T/stderr"; then
    show_run
    fail "$what: expected exactly one line on stderr, got $lines line(s)"
  fi
  if ! grep -qF -- "$offending" "$T/stderr"; then
    show_run
    fail "$what: the error does not name the offending file $offending"
  fi
  if [ "$(dir_listing "$T/out")" != "$before_out" ]; then
    show_run
    echo "--- left in $T/out:" >&2; dir_listing "$T/out" >&2
    fail "$what: g16 left files behind in (or changed files of) the output folder"
  fi
  if [ "$(dir_listing "$T/cwd")" != "$before_cwd" ]; then
    show_run
    echo "--- left in the working folder:" >&2; dir_listing "$T/cwd" >&2
    fail "$what: g16 left files behind in (or changed files of) its working folder"
  fi
  note "$what: $(cat "$T/stderr")"
}
