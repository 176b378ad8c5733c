# oopslimit: see README.md.
.PHONY: all run bench deps kernel initramfs capture-initramfs crash-ext recorder check test test-full test-times check-series \
	deb deb-releases fuzz matrix clean-cache

all: kernel initramfs capture-initramfs crash-ext recorder

# The main job: build, boot, load kdump, exhaust a limit, capture, verdict.
# POLICY=warn_limit|oops_limit|ubsan|panic_on_warn|panic_on_oops|sysrq,
# N=3 (the limit), MEM=512M (guest memory), CRASHKERNEL=64M.
POLICY ?= warn_limit
N ?= 3
MEM ?= 512M
CRASHKERNEL ?= 64M
run: deps
	scripts/main.sh -p "$(POLICY)" -n "$(N)" -m "$(MEM)" -c "$(CRASHKERNEL)"

# Benchmarks (figures, not pass/fail) into bench/results.md.  RUNS=5 per
# figure; PARTS="oops capture crashkernel analysis" picks some; PARTS=targets
# (not in the default: Debian guests, most of an hour) measures the smallest
# crashkernel= for each kind of dump target.
RUNS ?= 5
bench: deps
	scripts/bench.sh -r "$(RUNS)" $(PARTS)

deps:
	scripts/deps.sh

# Both guest kernels (limits and baseline), built outside the repository.
kernel: deps
	scripts/build-kernel.sh limits baseline

initramfs: deps
	scripts/guest-initramfs.sh

# The kdump capture initramfs, built by dracut from initramfs/99oopslimit.
capture-initramfs: kernel
	scripts/capture-initramfs.sh "$$(cat "$$(scripts/build-kernel.sh limits)/kernelrelease")"

# The crash extension, crash-ext/oopslimit.so (make -C crash-ext install to
# install it for crash -x), and the readers of recorder/ (oopslimit-reason,
# oopslimit-triage), built through kdump/.
crash-ext: deps
	$(MAKE) -C crash-ext

recorder: deps
	$(MAKE) -C kdump

# The fast lane: static checks and unit tests, no kernel build, no QEMU.
check: deps
	tests/check.sh

# The test suite (what .ci/run runs; 40 minutes at most on a fresh 2-core
# machine): make check, the limits and baseline kernels, the scenarios marked
# "tier test" (the core and one of each feature family) in QEMU, samples of
# the damage sweeps, a fuzz smoke run, the main job and the verifier.  TAP
# output, ending with "N passed, N failed", after the stages' wall times and
# the ten slowest tests.  SCENARIOS="warn-limit debian-nfs-target" runs those
# scenarios alone, of any tier.
test: deps
	$(if $(SCENARIOS),OOPSLIMIT_SCENARIOS_ONLY=1) tests/run.sh $(SCENARIOS)

# Everything: every scenario, the whole damage sweeps, a minute of fuzzing,
# the per-patch builds, then the reader matrix and the packages of every
# release (make matrix, make deb-releases).
test-full: deps
	OOPSLIMIT_TIER=full tests/run.sh
	scripts/matrix.sh
	for s in $(DEB_RELEASES); do scripts/deb.sh -r "$$s" >/dev/null || exit 1; done

# The last run's table of times (stages, ten slowest tests) into bench/, so
# that a regression shows in review: TIER=test (default) or full.
TIER ?= test
test-times:
	scripts/test-times.sh "$(TIER)"

# The reader matrix: each Debian release's stock kernel (scripts/debian-releases)
# booted, dumped and read by the recorder, crash --minimal, crash and drgn with
# its -dbg vmlinux (large downloads), into bench/matrix.md.  SUITES="trixie sid"
# picks some.
matrix: deps
	scripts/matrix.sh $(SUITES)

# Slow (a build per patch): proves each patch in patches/series builds alone.
check-series: deps
	scripts/check-series.sh

# The Debian packages (oopslimit-kdump, crash-oopslimit), checked by lintian.
deb: deps
	scripts/deb.sh

# The packages built in a clean chroot of each Debian release (mmdebstrap; as
# root), checked by that release's lintian, installed in another and run
# there; cached like make deb.  DEB_RELEASES="trixie" picks some.
DEB_RELEASES ?= bookworm trixie
deb-releases: deps
	for s in $(DEB_RELEASES); do scripts/deb.sh -r "$$s" || exit 1; done

# Fuzz the recorder's decoders: SECONDS=600 for a longer run.
SECONDS ?= 60
fuzz: deps
	$(MAKE) -C tests/fuzz run SECONDS="$(SECONDS)"

clean-cache:
	rm -rf "$${OOPSLIMIT_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/oopslimit}"
