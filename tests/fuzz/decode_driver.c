/* The fuzz run's driver of an exported C decoder's MOD_decode (MOD is replaced by
   the module name): for each line of hex on stdin, the input is copied into a
   buffer of exactly its length and decoded into an array of exactly the documented
   room (one code point per input byte), so that AddressSanitizer sees any access
   past either; one line out: the error count, then the code points in hex.  The
   first line out is the width of MOD_cp in bits. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <encspec/MOD.h>

int main(void)
{
    static char line[1 << 16];
    printf("bits %u\n", (unsigned)(8 * sizeof(MOD_cp)));
    while (fgets(line, sizeof line, stdin)) {
        size_t n = strcspn(line, "\r\n") / 2, k, count, errors = 0;
        unsigned char *data = malloc(n ? n : 1);
        MOD_cp *out = malloc((n ? n : 1) * sizeof *out);
        if (!data || !out)
            return 2;
        for (k = 0; k < n; k++) {
            unsigned v;
            if (sscanf(line + 2 * k, "%2x", &v) != 1)
                return 2;
            data[k] = (unsigned char)v;
        }
        count = MOD_decode(data, n, out, 0xFFFD, &errors);
        printf("%lu", (unsigned long)errors);
        for (k = 0; k < count; k++)
            printf(" %" PRIX64, (uint64_t)out[k]);
        printf("\n");
        free(data);
        free(out);
    }
    return 0;
}
