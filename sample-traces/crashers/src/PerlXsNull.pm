package PerlXsNull;
# The Perl half of perl-xs-null.xs.
require XSLoader;
XSLoader::load('PerlXsNull');
1;
