"""Counted checks for the Python parts of the command-line tests:

    sys.path.insert(0, LIB); from checks import Checks
    t = Checks()
    t.check(ok, "what"); t.close(got_text, expected, "what", rel=1e-12)
    t.finish(least=N)   # prints "N checks, M failed" and exits 1 on a failure
                        # or when fewer than `least` checks ran
"""
import sys


class Checks:
    def __init__(self):
        self.n = self.bad = 0

    def check(self, ok, what):
        self.n += 1
        if not ok:
            self.bad += 1
            print("FAIL " + what)
        return ok

    def close(self, got, exp, what, rel=1e-12):
        """got, a number's text ('' or None for none), is exp to rel; an
        expected None wants no number."""
        if exp is None:
            return self.check(got in ("", None), "%s: %r, expected none" % (what, got))
        ok = got not in ("", None) and abs(float(got) - exp) <= rel * max(abs(exp), 1e-300)
        return self.check(ok, "%s: %s, expected %r" % (what, got, exp))

    def finish(self, least=1, note=""):
        print("%d checks, %d failed%s" % (self.n, self.bad, note))
        sys.exit(1 if self.bad or self.n < least else 0)
