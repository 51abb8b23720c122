npx tsop create api --group batch --version v2 --kind CronJob --resource --controller=false
npx tsop create webhook --group batch --version v1 --kind CronJob --conversion --spoke v2 --force
