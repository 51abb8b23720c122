mkdir cronjob-operator && cd cronjob-operator
npx tsop@latest init --domain tutorial.tsop.dev --repo cronjob-operator
npx tsop create api --group batch --version v1 --kind CronJob --resource --controller
