# Session 6, call 7 (not run: the device time was spent): test_gpu on the
# final product code (Fq2 as two sums); carry .gpubin/tg.tar.xz (test_gpu
# alone).  Next session: bench/gpu/device_session.sh "tests fixtures
# synth24bn" with .gpubin/gb.tar.xz covers it.
mkdir -p /tmp/tg && tar xJf .gpubin/tg.tar.xz -C /tmp/tg
timeout 150 /tmp/tg/gb/test_gpu > $OUT/test_gpu.log 2>&1; echo "test_gpu rc=$?"; grep -iE "field|fail" $OUT/test_gpu.log | head; tail -4 $OUT/test_gpu.log
