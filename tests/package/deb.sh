#!/bin/bash
# The Debian packages as an operator gets them: CPack builds g16 and
# g16-dev from this build, dpkg -i installs both into an empty root (its
# own dpkg database; --force-depends: the libraries they need are the
# host's; maintainer scripts run chrootless with DPKG_ROOT, as for any
# root but the running system), and the installed programs, with the
# installed libg16, print their version and prove the demo (examples/
# multiplier-bn128: `g16 prove` from its witness, and g16d started on the
# installed /etc/g16d.conf from its input.json, as `make demo` does), each
# proof checked with the installed `g16 verify`; examples/embed builds on
# g16-dev (pkg-config) and proves it as well.
# dpkg -r then leaves nothing but /etc/g16d.conf; dpkg -P removes it and
# the daemon's state.
source "$(dirname "$0")/lib.sh"
: "${G16_VERSION:?G16_VERSION is not set}" "${G16_SOVERSION:?G16_SOVERSION is not set}"
EX=$G16_SOURCE/examples/multiplier-bn128
R=$T/root
if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo -n); fi
# dpkg (through sudo when not root) owns the root's files.
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; "${sudo[@]}" rm -rf "$T"' EXIT

(cd "$G16_BUILD" && cpack -G DEB -B "$T/out" >"$T/cpack.log" 2>&1) || fail "cpack: $(tail "$T/cpack.log")"
deb=$T/out/g16_${G16_VERSION}_amd64.deb dev=$T/out/g16-dev_${G16_VERSION}_amd64.deb
[ -f "$deb" ] && [ -f "$dev" ] || fail "cpack made no g16/g16-dev packages: $(ls "$T/out")"

# What each package holds.
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' >"$T/files"
for f in /usr/bin/g16 /usr/bin/g16d /usr/bin/memwatch /usr/lib/libg16.so.$G16_SOVERSION \
         /usr/lib/libg16_memwatch.so.$G16_SOVERSION /usr/lib/libg16_client.so.$G16_SOVERSION \
         /usr/lib/systemd/system/g16d.service /usr/lib/systemd/system/g16d.socket /etc/g16d.conf \
         /usr/share/man/man1/g16.1.gz /usr/share/man/man8/g16d.8.gz /usr/share/man/man1/memwatch.1.gz; do
  grep -qx "$f" "$T/files" || fail "g16 lacks $f"
done
! grep -qE '^/usr/include|libg16(_memwatch|_client)?\.(a|so)$' "$T/files" || fail "g16 holds the dev package's files"
dpkg-deb -c "$dev" | awk '{print $6}' | sed 's|^\./|/|' >"$T/devfiles"
for f in /usr/include/g16.h /usr/include/g16_memwatch.h /usr/include/g16_client.h \
         /usr/lib/libg16.so /usr/lib/libg16.a /usr/lib/pkgconfig/g16.pc \
         /usr/lib/libg16_memwatch.so /usr/lib/pkgconfig/g16_memwatch.pc \
         /usr/lib/libg16_client.so /usr/lib/pkgconfig/g16_client.pc; do
  grep -qx "$f" "$T/devfiles" || fail "g16-dev lacks $f"
done
[[ $(dpkg-deb -f "$dev" Depends) == *"g16 (= $G16_VERSION)"* ]] || fail "g16-dev does not depend on g16 $G16_VERSION"
[[ $(dpkg-deb -f "$deb" Depends) == *libjansson* ]] || fail "g16's Depends lack its libraries (dpkg-shlibdeps)"

# An empty root with an empty dpkg database.
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"
touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
dpkg_r() { "${sudo[@]}" dpkg --root="$R" --force-depends --force-script-chrootless "$@" >>"$T/dpkg.log" 2>&1 ||
             fail "dpkg $*: $(tail -5 "$T/dpkg.log")"; }
dpkg_r -i "$deb" "$dev"
[ "$(dpkg-query --root="$R" -W -f='${Status}' g16)" = "install ok installed" ] || fail "g16 not installed"

# The installed unit is the one package.units verifies.
cmp -s "$R/usr/lib/systemd/system/g16d.service" "$G16_BUILD/deploy/g16d.service" ||
  fail "the installed g16d.service differs from $G16_BUILD/deploy/g16d.service"

# The installed programs on the installed library.
for p in g16 g16d memwatch; do
  v=$("$R/usr/bin/$p" --version) || fail "$p --version failed"
  [[ $v == "$p $G16_VERSION "* ]] || fail "$p --version: '$v'"
done
note "$v"
deps=$(ldd "$R/usr/bin/g16")
[[ $deps == *"libg16.so.$G16_SOVERSION => $R/usr/bin/../lib/libg16.so.$G16_SOVERSION"* ]] ||
  fail "the installed g16 does not load the installed libg16: $deps"

# verified VK PUBLIC PROOF: the installed `g16 verify` says OK.
verified() { [ "$("$R/usr/bin/g16" verify "$@")" = OK ]; }

# The demo's proof, with `g16 prove`...
"$R/usr/bin/g16" prove "$EX/circuit.zkey" "$EX/witness.wtns" "$T/proof.json" "$T/public.json"
verified "$EX/verification_key.json" "$T/public.json" "$T/proof.json" ||
  fail "the installed g16's proof does not verify"
# ...and through g16d on the installed config file.
"$R/usr/bin/g16d" --config "$R/etc/g16d.conf" --socket "$T/s" --state-dir "$T/state" \
  --allow-dir "$EX" --memory-budget 256M >"$T/g16d.log" 2>&1 &
PID=$!
client() { "$R/usr/bin/g16" client --socket "$T/s" "$@"; }
for _ in $(seq 100); do client status >/dev/null 2>&1 && break; kill -0 "$PID" || fail "g16d: $(cat "$T/g16d.log")"; sleep 0.1; done
# As the demo does: the key with its circuit (compiled here with the
# packaged library's wasm2c runtime path), proved from input.json.
client keys load multiplier "$EX/circuit.zkey" --wasm "$EX/circuit.wasm" >/dev/null ||
  fail "the installed g16d cannot load the key with its circuit: $(tail -3 "$T/g16d.log")"
client prove --key multiplier --wait --out "$T/d" --input "$EX/input.json" >/dev/null ||
  fail "the installed g16d's proof from input.json failed"
verified "$EX/verification_key.json" "$T/d/public-0.json" "$T/d/proof-0.json" ||
  fail "the installed g16d's proof does not verify"
cmp -s "$T/d/public-0.json" "$T/public.json" || fail "g16d's public signals differ from g16 prove's"
kill -TERM "$PID"; wait "$PID" || fail "g16d exited with $? after SIGTERM"; PID=
note "proved with the installed g16 and g16d"

# g16-dev: a program built with the installed headers, g16.pc and
# libg16.so (examples/embed) proves the demo too.
san=()
[ "${G16_SANITIZED:-0}" = 1 ] && san=(-fsanitize=address,undefined)
flags=$(PKG_CONFIG_PATH=$R/usr/lib/pkgconfig pkg-config --cflags --libs g16) ||
  fail "pkg-config does not find the installed g16.pc"
[[ $flags == *"-I$R/"* ]] || fail "g16.pc does not point into the installed root: $flags"
"${CC:-cc}" -Wall -Wextra -Werror "${san[@]}" "$G16_SOURCE/examples/embed/embed.c" $flags \
  -Wl,-rpath,"$R/usr/lib" -o "$T/embed" || fail "examples/embed does not build with g16-dev"
"$T/embed" "$EX/circuit.zkey" "$EX/witness.wtns" "$T/embed.public.json" >"$T/embed.proof.json"
verified "$EX/verification_key.json" "$T/embed.public.json" "$T/embed.proof.json" || fail "the proof of the program built on g16-dev does not verify"

# The man pages are the programs' --help; the config lists every option.
[[ $(zcat "$R/usr/share/man/man8/g16d.8.gz") == *'memory\-budget'* ]] || fail "g16d.8 lacks --memory-budget"
[[ $(zcat "$R/usr/share/man/man1/g16.1.gz") == *'g16 client'* ]] || fail "g16.1 lacks the client command"
"$R/usr/bin/g16d" --help | grep -oE '^  --[a-z0-9-]+' | sed 's/^  --//' |
  grep -vxE 'config|help|version' >"$T/options"
[ "$(wc -l <"$T/options")" -ge 30 ] || fail "g16d --help lists only $(wc -l <"$T/options") options"
while read -r o; do
  grep -qE "^# $o = " "$R/etc/g16d.conf" || fail "/etc/g16d.conf does not list the option $o"
done <"$T/options"

# Removed: nothing but the conffile; purged: nothing, the state neither.
mkdir -p "$R/var/lib/private/g16d" && echo job >"$R/var/lib/private/g16d/jobs.db"
dpkg_r -r g16-dev g16
find "$R" -path "$R/var/lib/dpkg" -prune -o -path "$R/var/lib/private" -prune -o \
  \( -type f -o -type l \) -print | sed "s|^$R||" >"$T/left"
[ "$(cat "$T/left")" = /etc/g16d.conf ] || fail "dpkg -r left: $(tr '\n' ' ' <"$T/left")"
[ "$(dpkg-query --root="$R" -W -f='${Status}' g16)" = "deinstall ok config-files" ] ||
  fail "g16 after dpkg -r: $(dpkg-query --root="$R" -W -f='${Status}' g16)"
dpkg_r -P g16
left=$(find "$R" -path "$R/var/lib/dpkg" -prune -o \( -type f -o -type l \) -print)
[ -z "$left" ] || fail "dpkg -P left: $left"
note "installed, proved, removed (config kept), purged (config and state gone)"
