# oopslimit: see README.md.
.PHONY: all deps kernel initramfs capture-initramfs test check-series clean-cache

all: kernel initramfs capture-initramfs

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

# The test suite: static checks, then every scenario in QEMU.  TAP output,
# ending with "N passed, N failed".  SCENARIOS="warn-limit oops-limit" picks some.
test: deps
	tests/run.sh $(SCENARIOS)

# Slow (a build per patch): proves each patch in patches/series builds alone.
check-series: deps
	scripts/check-series.sh

clean-cache:
	rm -rf "$${OOPSLIMIT_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/oopslimit}"
