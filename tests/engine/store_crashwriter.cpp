// Helper for tst_projectstore's crash test: appends edits to a project and
// prints the number of each one once it is committed, until it is killed.
#include "store/projectstore.h"

#include <cstdio>
#include <string>

int main(int argc, char** argv)
{
    if (argc < 3)
        return 2;
    std::string error;
    auto store = stampede::ProjectStore::open(argv[1], error);
    if (!store) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    const long first = std::stol(argv[2]);
    for (long n = first; n < first + 1000; ++n) {
        const std::string name = "edit " + std::to_string(n);
        if (!store->addItem(0, stampede::ItemKind::Environment, name, "{\"n\": " + std::to_string(n) + "}"))
            return 1;
        std::printf("%ld\n", n);
        std::fflush(stdout);
    }
    return 0;
}
