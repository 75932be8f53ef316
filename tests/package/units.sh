#!/bin/bash
# The systemd units as packaged: `systemd-analyze verify` says nothing
# about them (a warning fails too), with ExecStart= pointing at this
# build's g16d and the man page of Documentation= this build's; the
# service is Type=notify with the watchdog, the state and runtime
# directories and locked memory unlimited, and its sandbox rates OK
# (exposure at most 2.5 of 10, `systemd-analyze security --offline`).
source "$(dirname "$0")/lib.sh"
command -v systemd-analyze >/dev/null || fail "systemd-analyze not found (the systemd package; make deps)"
unit=$G16_BUILD/deploy/g16d.service
[ -f "$unit" ] || fail "no $unit (deploy/package.cmake writes it)"
mkdir -p "$T/units" "$T/man/man8"
sed "s|^ExecStart=/usr/bin/g16d |ExecStart=$G16_BUILD/bin/g16d |" "$unit" >"$T/units/g16d.service"
grep -q "^ExecStart=$G16_BUILD/bin/g16d " "$T/units/g16d.service" || fail "ExecStart= is not /usr/bin/g16d"
cp "$G16_SOURCE/deploy/systemd/g16d.socket" "$T/units/"
cp "$G16_BUILD/man/g16d.8.gz" "$T/man/man8/"
MANPATH=$T/man systemd-analyze verify "$T/units/g16d.service" "$T/units/g16d.socket" >"$T/verify" 2>&1 ||
  fail "systemd-analyze verify: $(cat "$T/verify")"
[ ! -s "$T/verify" ] || fail "systemd-analyze verify warns: $(cat "$T/verify")"
for d in Type=notify WatchdogSec= StateDirectory=g16d RuntimeDirectory=g16d NoNewPrivileges=yes \
         ProtectSystem=strict PrivateTmp=yes LimitMEMLOCK=infinity DynamicUser=yes; do
  grep -q "^$d" "$T/units/g16d.service" || fail "g16d.service lacks $d"
done
grep -q "^ListenStream=/" "$T/units/g16d.socket" || fail "g16d.socket listens on no path"
systemd-analyze security --offline=yes --threshold=25 "$T/units/g16d.service" >"$T/sec" 2>&1 ||
  fail "sandbox exposure over 2.5: $(tail -1 "$T/sec")"
note "$(tail -1 "$T/sec")"
