/*
 * formats/common.c - small helpers every module shares: the one
 * error-formatting helper.  (The heap is inline in reel.h.)
 */
#include <stdarg.h>
#include <stdio.h>

#include "formats/reel.h"

int reel_errf(char *buf, size_t len, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	reel_verrf(buf, len, fmt, ap);
	va_end(ap);
	return code;
}

void reel_verrf(char *buf, size_t len, const char *fmt, va_list ap)
{
	if (buf && len)
		vsnprintf(buf, len, fmt, ap);
}
