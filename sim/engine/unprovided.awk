# unprovided.awk — writes sim/engine/unprovided.c from src/mpi.h: for every function of the
# block of mpi.h that collsim declares but does not implement (one-sided communication, MPI-IO,
# dynamic processes, MPI_T, the Fortran handle conversions), an MPI_ and a PMPI_ definition
# whose only act is to stop the run naming the call (sim_unprovided_call), and the table of
# their names that `collsim exec` reads to tell such references apart from missing ones
# (sim/engine/program_check.c). mpi.h stays the one list: a function moved out of the block
# when collsim implements it loses its refusing twin at the next build.
#
#   awk -f unprovided.awk src/mpi.h >sim/engine/unprovided.c
BEGIN {
    inside = 0
    pending = ""
    count = 0
    print "/* Generated from src/mpi.h by sim/engine/unprovided.awk: do not edit. */"
    print "#include \"config.h\""
    print ""
    print "#include \"mpi.h\""
    print "#include \"sim/engine/program_check.h\""
    print ""
    print "/* The parameters are there for the signature only. */"
    print "#pragma GCC diagnostic ignored \"-Wunused-parameter\""
}

/Declared so that a call is refused by name/ { inside = 1; next }
/end of the declared, not implemented, block/ { inside = 0; next }

inside && /^[ \t]*\/?\*/ { next }   # comment lines of the block

inside {
    line = $0
    sub(/^[ \t]+/, " ", line)
    pending = pending line
    if (pending !~ /;[ \t]*$/)
        next
    declaration = pending
    pending = ""
    if (!match(declaration, /MPI_[A-Za-z0-9_]+\(/)) {
        print "unprovided.awk: cannot read the declaration: " declaration > "/dev/stderr"
        exit 1
    }
    type = substr(declaration, 1, RSTART - 1)
    sub(/[ \t]+$/, "", type)
    name = substr(declaration, RSTART, RLENGTH - 1)
    parameters = substr(declaration, RSTART + RLENGTH - 1)
    sub(/;[ \t]*$/, "", parameters)
    for (profiled = 0; profiled <= 1; profiled++) {
        callable = (profiled ? "P" : "") name
        print ""
        if (profiled)
            print type " " callable parameters ";"
        print type
        print callable parameters
        print "{"
        print "    sim_unprovided_call(\"" callable "\", __builtin_return_address(0));"
        print "}"
        names[count++] = callable
    }
}

END {
    if (count == 0) {
        print "unprovided.awk: no declared, not implemented, block in the input" > "/dev/stderr"
        exit 1
    }
    print ""
    print "const char *const sim_unprovided_names[] = {"
    for (i = 0; i < count; i++)
        print "    \"" names[i] "\","
    print "};"
    print "const unsigned sim_unprovided_count = " count ";"
}
