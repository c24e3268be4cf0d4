# zsh's own completion engine asked what it offers for a command line, as a person at a
# terminal sees it: an interactive zsh in a pseudo-terminal (zsh/zpty), compinit loading _sct
# from fpath through its #compdef line, the line typed, then the list-choices key (what zsh
# shows on Tab when there is more than one match, and for one match too). Prints what the
# terminal received after the line was typed, up to a marker that the shell prints once the
# list is out.
#
#   zsh -f zsh-complete.zsh COMPLETIONS_DIR 'sct dds '
zmodload zsh/zpty || { print -u2 'zsh/zpty is not available'; exit 3 }
zpty sct_line zsh -f -i
# A tall and wide terminal, so zsh lists every match, each description whole, without asking.
zpty -w sct_line "stty rows 1000 cols 500; PROMPT='<ready>'; RPROMPT=''; LISTMAX=1000000; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D"
# The marker's number is computed, so the echo of what is typed never matches it.
zpty -w sct_line 'show-line() { print -r -- $'"'"'\n'"'"'"<line>$BUFFER</line><done$((6*7))>" }; zle -N show-line; bindkey "^X^B" show-line; bindkey "^X^L" list-choices; print setup$((1+1))'
zpty -r sct_line ignored '*setup2*' || exit 4
zpty -r sct_line ignored '*<ready>*' || exit 5
zpty -w -n sct_line "$2"$'\C-x\C-l\C-x\C-b'
zpty -r sct_line screen '*<done42>*' || exit 6
print -r -- "$screen"
zpty -d sct_line
