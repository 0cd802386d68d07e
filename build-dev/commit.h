#define MR_COMMIT "bd082e8859be-dirty"
