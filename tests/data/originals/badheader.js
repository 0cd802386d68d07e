// memrepro: params mb
// memrepro: params nosuch
