# The binaries and libraries bench/daemon/gpu_prepare.sh put in .gpubin/,
# made usable on the GPU machine (sourced by gpu_bench.sh and gpu_tests.sh).
# The caller sets ROOT (the repository), T (a scratch directory), BIN (a
# folder of g16 and g16d, or empty) and log() / die().  Sets BIN, G16,
# G16D and LD_LIBRARY_PATH; g16d must run afterwards.

if [ -z "$BIN" ] && [ -f "$ROOT/.gpubin/daemon-bin.tar.xz" ]; then
  BIN=$T/bin
  mkdir -p "$BIN" && tar xJf "$ROOT/.gpubin/daemon-bin.tar.xz" -C "$BIN"
fi
BIN=${BIN:-$ROOT/build/bin}
G16=$BIN/g16 G16D=$BIN/g16d
# the tarball's libg16.so.1 and side libraries sit beside the programs (a
# build folder's bin/ has none: its programs find them by their rpath)
LIBS=$(ls "$BIN"/libg16*.so.1 2>/dev/null || true)
[ -n "$LIBS" ] && export LD_LIBRARY_PATH=$BIN${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# Libraries g16d lacks there: libmicrohttpd12 always (harmless where it is
# installed), then an extra deb only for a soname still not found.
PREFIX=/tmp/prefix
if [ -d "$ROOT/.gpubin/debs" ]; then
  for deb in "$ROOT"/.gpubin/debs/*.deb; do dpkg -x "$deb" "$PREFIX"; done
  export LD_LIBRARY_PATH=$PREFIX/usr/lib/x86_64-linux-gnu:$PREFIX/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  for _ in 1 2 3; do                 # gnutls's own needs show once it is unpacked
    # shellcheck disable=SC2086 # LIBS: one path a line, none with spaces
    missing=$(ldd "$G16D" "$G16" $LIBS 2>/dev/null | awk '/not found/ {print $1}')
    [ -n "$missing" ] || break
    for so in $missing; do
      for deb in "$ROOT"/.gpubin/debs/extra/*.deb; do
        dpkg-deb -c "$deb" | grep -q "/$so " && { log "unpacking $(basename "$deb") for $so"; dpkg -x "$deb" "$PREFIX"; }
      done
    done
  done
fi
# shellcheck disable=SC2086
ldd "$G16D" "$G16" $LIBS 2>/dev/null | grep "not found" >&2 && die "g16d still lacks the libraries above (bench/daemon/gpu_prepare.sh)"
"$G16D" --help >/dev/null || die "$G16D does not run here"
