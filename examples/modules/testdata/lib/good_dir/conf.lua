return {description = "a directory module"}
