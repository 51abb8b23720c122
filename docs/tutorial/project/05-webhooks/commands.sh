npx tsop create webhook --group batch --version v1 --kind CronJob --defaulting --programmatic-validation
