# oopslimit: see README.md.
.PHONY: all deps kernel initramfs test check clean-cache

all: kernel initramfs

deps:
	scripts/deps.sh

# Both guest kernels (limits and baseline), built outside the repository.
kernel: deps
	scripts/build-kernel.sh limits baseline

initramfs: deps
	scripts/guest-initramfs.sh

# The test suite: static checks, then every scenario in QEMU.  TAP output,
# ending with "N passed, N failed".  SCENARIOS="warn-limit oops-limit" picks some.
test: deps
	tests/run.sh $(SCENARIOS)

clean-cache:
	rm -rf "$${OOPSLIMIT_CACHE:-$${XDG_CACHE_HOME:-$$HOME/.cache}/oopslimit}"
