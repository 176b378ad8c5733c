# SPDX-License-Identifier: GPL-2.0
"""Reading a QEMU dump-guest-memory ELF file without a VMCOREINFO note:
its PT_LOAD segments, and the kernel's vmcoreinfo text found by scanning
its physical memory (for the KASLR offset and phys_base).  Shared by
drgn-counters.py and drop-page.py."""
import mmap
import re
import struct

START_KERNEL_MAP = 0xFFFFFFFF80000000


def open_dump(path):
    f = open(path, "rb")
    return mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)


def elf_loads(mm):
    """PT_LOAD segments of an ELF64 core: (file offset, paddr, filesz)."""
    if mm[:4] != b"\x7fELF" or mm[4] != 2:
        raise SystemExit("not an ELF64 file")
    phoff, = struct.unpack_from("<Q", mm, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", mm, 0x36)
    loads = []
    for i in range(phnum):
        p_type, _, p_offset, _, p_paddr, p_filesz = struct.unpack_from(
            "<IIQQQQ", mm, phoff + i * phentsize)
        if p_type == 1:
            loads.append((p_offset, p_paddr, p_filesz))
    return loads


def scan_vmcoreinfo(mm, loads):
    """The kernel's vmcoreinfo text, found in physical memory, or None."""
    size = len(mm)
    for off, _, filesz in loads:
        end = min(off + filesz, size)
        pos = mm.find(b"OSRELEASE=", off, end)
        while pos >= 0:
            text = mm[pos:min(pos + 4096, end)].split(b"\0", 1)[0]
            if b"\nKERNELOFFSET=" in text and b"\nNUMBER(phys_base)=" in text:
                return text.decode("ascii", "replace")
            pos = mm.find(b"OSRELEASE=", pos + 1, end)
    return None


def kernel_mapping(info):
    """(KASLR offset, phys_base) from a vmcoreinfo text."""
    kaslr = int(re.search(r"^KERNELOFFSET=([0-9a-f]+)$", info, re.M).group(1), 16)
    phys_base = int(re.search(r"^NUMBER\(phys_base\)=(-?\d+)$", info, re.M).group(1))
    return kaslr, phys_base


def linked_to_phys(address, kaslr, phys_base):
    """Physical address of a link-time kernel-image address."""
    return address + kaslr - START_KERNEL_MAP + phys_base


def program(path, vmlinux):
    """A drgn Program over the dump with vmlinux's debug info, its kernel
    image and direct map mapped by hand; returns (prog, KASLR offset,
    function from a physical address to a file offset or None).  drgn sees
    link-time addresses: the offset is added when reading."""
    import drgn

    mm = open_dump(path)
    loads = elf_loads(mm)
    info = scan_vmcoreinfo(mm, loads)
    if info is None:
        raise SystemExit("no vmcoreinfo text in the dump's memory")
    kaslr, phys_base = kernel_mapping(info)

    def file_offset(paddr, count=1):
        for off, start, filesz in loads:
            if start <= paddr and paddr + count <= start + filesz:
                o = off + paddr - start
                return o if o + count <= len(mm) else None
        return None

    def reader(to_phys):
        def read(address, count, offset, physical):
            o = file_offset(to_phys(address), count)
            if o is None:
                raise drgn.FaultError("not in the dump", address)
            return mm[o:o + count]
        return read

    prog = drgn.Program(drgn.host_platform)
    prog.add_memory_segment(START_KERNEL_MAP, 1 << 31,
                            reader(lambda a: linked_to_phys(a, kaslr, phys_base)))
    prog.load_debug_info([vmlinux])
    try:
        page_offset = prog["page_offset_base"].value_()
    except (LookupError, drgn.FaultError):
        page_offset = 0xFFFF888000000000
    top = max(start + filesz for _, start, filesz in loads)
    prog.add_memory_segment(page_offset, top, reader(lambda a: a - page_offset))
    return prog, kaslr, lambda paddr: file_offset(paddr)
