-- GET the latest pass with its token (200, the signed archive).
wrk.headers["Authorization"] = "ApplePass " .. os.getenv("TOKEN")
