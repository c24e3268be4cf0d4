# bash completion for sct — generated from the command tree by `sct completion bash`
_sct() {
  local cur prev path w i opts candidate
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    -o) COMPREPLY=( $(compgen -W 'table json ndjson csv' -- "$cur") ); return ;;
    --output) COMPREPLY=( $(compgen -W 'table json ndjson csv' -- "$cur") ); return ;;
  esac
  case " -o --output --columns --profile --base-url --timeout --max-wait --commodity --composition --limit --page-size --offset --ordering --search --filter --name --sku --description --hs-code --external-id --scientific-name --common-name --type --tag --set --file -X --method -f --field --input --port --host --seed --orders --rate-limit --statement-delay --latency --fail-rate --drop-rate " in
    *" $prev "*) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  path=""
  for ((i=1; i<COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    candidate="${path:+$path }$w"
    case "|auth|auth login|auth status|auth logout|auth token|config|config list|config get|config set|config unset|config path|whoami|products|products list|products get|products create|products update|products delete|api|completion|sandbox|doctor|" in
      *"|$candidate|"*) path="$candidate" ;;
    esac
  done
  case "$path" in
    '') opts='auth config whoami products api completion sandbox doctor -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'auth') opts='login status logout token -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'auth login') opts='--with-token -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'auth status') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'auth logout') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'auth token') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config') opts='list get set unset path -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config list') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config set') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config unset') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'config path') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'whoami') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products') opts='list get create update delete -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products list') opts='--commodity --composition --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products create') opts='--name --sku --description --commodity --composition --hs-code --external-id --scientific-name --common-name --type --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products update') opts='--name --sku --description --commodity --composition --hs-code --external-id --scientific-name --common-name --type --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products delete') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'api') opts='-X --method -f --field --input --paginate -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'completion') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'sandbox') opts='--port --host --seed --orders --rate-limit --statement-delay --latency --fail-rate --drop-rate --log -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'doctor') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    *) opts="" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _sct sct
