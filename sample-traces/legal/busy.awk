BEGIN { while (1) { a[i++ % 5000] = sprintf("%d-%s", i, "abc"); } }
