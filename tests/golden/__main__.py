"""`python -m tests.golden write`: write the golden playthroughs again."""

import sys

from tests.golden import __doc__ as usage
from tests.golden import write

if sys.argv[1:] == ["write"]:
    write()
else:
    print(usage)
