i=0; while true; do i=$((i+1)); s="${s}x"; [ ${#s} -gt 1000 ] && s=; done
