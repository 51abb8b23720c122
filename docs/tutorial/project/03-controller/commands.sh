npm install croner@10
