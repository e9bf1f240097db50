print("tapkit")
