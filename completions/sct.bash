# bash completion for sct — generated from the command tree by `sct completion bash`
_sct() {
  local cur prev path w i opts candidate
  cur="${COMP_WORDS[COMP_CWORD]}"
  prev="${COMP_WORDS[COMP_CWORD-1]}"
  case "$prev" in
    -o) COMPREPLY=( $(compgen -W 'table json ndjson csv' -- "$cur") ); return ;;
    --output) COMPREPLY=( $(compgen -W 'table json ndjson csv' -- "$cur") ); return ;;
  esac
  case " -o --output --columns --profile --base-url --timeout --max-wait --type --buyer-status --seller-status --assessment-status --created-from --created-to --arrival-from --arrival-to --value-chain --tag --commodity --traced-origin --limit --page-size --offset --ordering --search --filter --external-id --order-created-at --order-arrival-at --buyer-external-id --seller-external-id --buyer-company-id --seller-company-id --company-id --border-cross-country-code --signed-off-at --item --set --file --group-by --delimit-by --to-order --to-origin --report --concurrency --composition --name --sku --description --hs-code --scientific-name --common-name --country --updated-from --updated-to --passing-min --failing-min --id --exclude-id --country-code --location --status --company-name --contact-name --reciprocal-company-id --dds-identifier --order --product --orders --products --assessment-run-ids --exclude-dds --dds --identifier --origin --document --out --content-type --source --exclude-type --email --email-contains --role --role-name --invited-by --expires-from --expires-to --first-name --last-name --job-title -X --method -f --field --input --port --host --seed --rate-limit --statement-delay --latency --fail-rate --drop-rate " in
    *" $prev "*) COMPREPLY=( $(compgen -f -- "$cur") ); return ;;
  esac
  path=""
  for ((i=1; i<COMP_CWORD; i++)); do
    w="${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    candidate="${path:+$path }$w"
    case "|orders|orders list|orders get|orders create|orders update|orders delete|orders stats|orders trace|orders import|products|products list|products get|products create|products update|products delete|origins|origins list|origins get|origins create|origins update|origins delete|origins import|value-chains|value-chains list|value-chains get|value-chains create|value-chains update|value-chains delete|dds|dds list|dds get|dds create|dds update|dds delete|dds wait|dds available-orders|dds trace|risk|risk list|risk create|risk evidence|documents|documents list|documents get|documents upload|documents download|imports|imports list|imports get|imports create|info-requests|info-requests send|workspaces|workspaces list|workspaces switch|workspaces current|invitations|invitations list|invitations get|invitations create|invitations bulk-create|invitations revoke|invitations renew|invitations public|members|members list|members set-role|users|users list|countries|countries list|countries get|user-config|user-config get|user-config set|auth|auth login|auth status|auth logout|auth token|config|config list|config get|config set|config unset|config path|whoami|api|completion|sandbox|doctor|" in
      *"|$candidate|"*) path="$candidate" ;;
    esac
  done
  case "$path" in
    '') opts='orders products origins value-chains dds risk documents imports info-requests workspaces invitations members users countries user-config auth config whoami api completion sandbox doctor -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders') opts='list get create update delete stats trace import -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders list') opts='--buying --selling --type --buyer-status --seller-status --assessment-status --created-from --created-to --arrival-from --arrival-to --value-chain --tag --commodity --has-dds --dds --no-dds --traced-origin --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders create') opts='--purchase --sale --batch --external-id --type --order-created-at --order-arrival-at --buyer-external-id --seller-external-id --buyer-status --seller-status --assessment-status --value-chain --buyer-company-id --seller-company-id --company-id --border-cross-country-code --signed-off-at --tag --send-information-request --item --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders update') opts='--purchase --sale --batch --external-id --type --order-created-at --order-arrival-at --buyer-external-id --seller-external-id --buyer-status --seller-status --assessment-status --value-chain --buyer-company-id --seller-company-id --company-id --border-cross-country-code --signed-off-at --tag --send-information-request --item --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders delete') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders stats') opts='--buying --selling --type --buyer-status --seller-status --assessment-status --created-from --created-to --arrival-from --arrival-to --value-chain --tag --commodity --has-dds --dds --no-dds --traced-origin --group-by --delimit-by --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders trace') opts='--item --to-order --to-origin --replace --purchase --sale --batch -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'orders import') opts='--purchase --sale --batch --file --report --force --concurrency --fresh --dry-run -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products') opts='list get create update delete -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products list') opts='--commodity --composition --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products create') opts='--name --sku --description --commodity --composition --hs-code --external-id --scientific-name --common-name --type --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products update') opts='--name --sku --description --commodity --composition --hs-code --external-id --scientific-name --common-name --type --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'products delete') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins') opts='list get create update delete import -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins list') opts='--country --assessment-status --name --description --external-id --created-from --created-to --updated-from --updated-to --passing-min --failing-min --id --exclude-id --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins create') opts='--name --description --country-code --external-id --location --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins update') opts='--name --description --country-code --external-id --location --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins delete') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'origins import') opts='--file --report --force --concurrency --fresh --dry-run -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains') opts='list get create update delete -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains list') opts='--status --type --country --assessment-status --company-name --contact-name --external-id --tag --permission-granted --no-permission-granted --self-managed --no-self-managed --created-from --created-to --updated-from --updated-to --id --exclude-id --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains create') opts='--company-name --description --external-id --contact-name --type --status --country-code --permission-granted --no-permission-granted --self-managed --no-self-managed --reciprocal-company-id --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains update') opts='--company-name --description --external-id --contact-name --type --status --country-code --permission-granted --no-permission-granted --self-managed --no-self-managed --reciprocal-company-id --tag --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'value-chains delete') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds') opts='list get create update delete wait available-orders trace -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds list') opts='--type --status --name --dds-identifier --order --product --created-from --created-to --updated-from --updated-to --id --exclude-id --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds create') opts='--type --name --dds-identifier --orders --products --assessment-run-ids --set --file --wait --timeout -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds update') opts='--status --name -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds delete') opts='--withdraw -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds wait') opts='--timeout -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds available-orders') opts='--exclude-dds --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'dds trace') opts='--dds --order --file --report --force --concurrency --fresh -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'risk') opts='list create evidence -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'risk list') opts='--limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'risk create') opts='--identifier --name --description --order --origin --product --document --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'risk evidence') opts='--out --force -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'documents') opts='list get upload download -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'documents list') opts='--limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'documents get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'documents upload') opts='--name --description --content-type --tag -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'documents download') opts='--out --force -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'imports') opts='list get create -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'imports list') opts='--limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'imports get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'imports create') opts='--type --source --document --name --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'info-requests') opts='send -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'info-requests send') opts='--file --report --force --concurrency --fresh -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'workspaces') opts='list switch current -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'workspaces list') opts='--type --exclude-type --country --name --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'workspaces switch') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'workspaces current') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations') opts='list get create bulk-create revoke renew public -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations list') opts='--id --exclude-id --email --email-contains --status --role --role-name --invited-by --created-from --created-to --expires-from --expires-to --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations create') opts='--email --role --set --file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations bulk-create') opts='--file --role --report --force --fresh --dry-run -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations revoke') opts='--id --exclude-id --email --email-contains --status --role --role-name --invited-by --created-from --created-to --expires-from --expires-to --search --filter --all-pending -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations renew') opts='--id --exclude-id --email --email-contains --status --role --role-name --invited-by --created-from --created-to --expires-from --expires-to --search --filter --all-pending -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'invitations public') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'members') opts='list set-role -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'members list') opts='--role --role-name --email --first-name --last-name --job-title --created-from --created-to --updated-from --updated-to --limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'members set-role') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'users') opts='list -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'users list') opts='--limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'countries') opts='list get -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'countries list') opts='--limit --page-size --offset --all --ordering --search --filter -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'countries get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'user-config') opts='get set -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'user-config get') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'user-config set') opts='--file -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
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
    'api') opts='-X --method -f --field --input --paginate -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'completion') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'sandbox') opts='--port --host --seed --orders --rate-limit --statement-delay --latency --fail-rate --drop-rate --log -V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    'doctor') opts='-V --version -o --output --json --columns --no-color -q --quiet -v --verbose -y --yes --profile --base-url --timeout --max-wait' ;;
    *) opts="" ;;
  esac
  COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
}
complete -o default -F _sct sct
