# Writes the course site's "Labs" page: one entry per labs/NN-name/README.md, in folder order.
# Each handout's first line must be `# Lab NN — Title {#labNN}`; the anchor names the lab's page.
#   cmake -DLABS=<repo>/labs -DOUT=<file.md> -P make_lab_index.cmake
file(GLOB dirs LIST_DIRECTORIES true RELATIVE ${LABS} ${LABS}/[0-9][0-9]-*)
list(SORT dirs)
set(entries "")
foreach(dir IN LISTS dirs)
  set(readme ${LABS}/${dir}/README.md)
  if(NOT IS_DIRECTORY ${LABS}/${dir})
    continue()
  endif()
  if(NOT EXISTS ${readme})
    message(WARNING "labs/${dir} has no README.md yet: the course site has no page for it")
    continue()
  endif()
  file(STRINGS ${readme} first LIMIT_COUNT 1 ENCODING UTF-8)
  string(SUBSTRING ${dir} 0 2 id)
  if(NOT first MATCHES "^# Lab ${id} .*[{]#lab${id}[}] *$")
    message(FATAL_ERROR "labs/${dir}/README.md must start with the line `# Lab ${id} — Title {#lab${id}}` "
                        "(its page on the course site is named by that anchor); it starts with: ${first}")
  endif()
  string(APPEND entries "- @subpage lab${id}\n")
endforeach()

set(page "# Labs {#labs}

The labs, in teaching order. Each page is the handout in the lab's folder
(`labs/NN-name/README.md`): read it, fill in the TODOs of the `.cu` file beside it, and run
`make -C build -j\"$(nproc)\" check-labNN` from the repository root.

${entries}
Before the first lab, read @ref concepts \"the concept pages\" they build on, and
@ref grading \"how grading works\".
")
# Rewrite only on change, so an unchanged site is not rebuilt for nothing by tools that watch it.
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL page)
  file(WRITE ${OUT} "${page}")
endif()
