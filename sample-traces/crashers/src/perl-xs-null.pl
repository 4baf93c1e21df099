# Reports the histogram total through the XS module.
use lib '.';
use PerlXsNull;

sub report { return PerlXsNull::total(); }
print "total ", report(), "\n";
