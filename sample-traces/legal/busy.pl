my $s="a"x1000; my %h; my $i=0; while(1){ $s =~ s/(a+)/$1/g; $h{$i++ % 1000} = $s; }
