// SPDX-License-Identifier: GPL-2.0
/*
 * oopslimit_test - the crash types the Debian guest tests need, for a
 * distribution kernel that has no LKDTM.  Only ever loaded inside a QEMU
 * guest.
 *
 * Writing a type name to /proc/oopslimit-test does it, from the writer's
 * context, the way LKDTM's DIRECT file does (the names are LKDTM's, so that
 * a test plan reads the same for either kernel):
 *
 *   WARNING    one WARN(): counts towards kernel.warn_limit
 *   WARNING_MESSAGE
 *              the same from another function, so that a test can spend
 *              the budget at two warning sites
 *   EXCEPTION  a write through a NULL pointer: an oops that kills the
 *              writing task and counts towards kernel.oops_limit
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define OOPSLIMIT_TEST_FILE "oopslimit-test"

static noinline void oopslimit_test_warning(void)
{
	WARN(1, "oopslimit-test: WARNING requested\n");
}

static noinline void oopslimit_test_warning_message(void)
{
	WARN(1, "oopslimit-test: WARNING_MESSAGE requested\n");
}

static noinline void oopslimit_test_exception(void)
{
	int *p = NULL;

	/* WRITE_ONCE: the store must happen, not be reasoned away */
	WRITE_ONCE(*p, 0);
}

static ssize_t oopslimit_test_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	char buf[16];
	size_t len = min(count, sizeof(buf) - 1);

	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	strim(buf);

	if (!strcmp(buf, "WARNING"))
		oopslimit_test_warning();
	else if (!strcmp(buf, "WARNING_MESSAGE"))
		oopslimit_test_warning_message();
	else if (!strcmp(buf, "EXCEPTION"))
		oopslimit_test_exception();
	else
		return -EINVAL;
	return count;
}

static const struct proc_ops oopslimit_test_ops = {
	.proc_write = oopslimit_test_write,
	.proc_lseek = noop_llseek,
};

static int __init oopslimit_test_init(void)
{
	if (!proc_create(OOPSLIMIT_TEST_FILE, 0200, NULL, &oopslimit_test_ops))
		return -ENOMEM;
	pr_info("oopslimit-test: write WARNING, WARNING_MESSAGE or EXCEPTION to /proc/%s\n",
		OOPSLIMIT_TEST_FILE);
	return 0;
}

static void __exit oopslimit_test_exit(void)
{
	remove_proc_entry(OOPSLIMIT_TEST_FILE, NULL);
}

module_init(oopslimit_test_init);
module_exit(oopslimit_test_exit);
MODULE_DESCRIPTION("Warnings and oopses on request, for the oopslimit tests");
MODULE_LICENSE("GPL");
