/* What tests/tempnames.sh must find (lines 4 and 5), and not (x.tmp here). */
int f(char *p)
{
	snprintf(p, 64, "%s.new", p);
	return tmpnam(p) != 0;
}
