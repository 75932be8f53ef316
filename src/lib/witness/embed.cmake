# Writes OUT, a C file defining the char arrays named in NAMES with the
# texts of the files in FILES (same order): the glue that libg16 compiles
# into each circuit at run time.  Run by CMake at build time (cmake -P).
set(body "/* Generated from the circuit glue's files by embed.cmake: do not edit. */\n")
list(LENGTH FILES n)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  list(GET FILES ${i} file)
  list(GET NAMES ${i} name)
  file(READ ${file} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  string(APPEND body "const char ${name}[] = {${hex}0};\n")
endforeach()
file(WRITE ${OUT} "${body}")
