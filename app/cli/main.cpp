#include "cli.h"

int main(int argc, char** argv)
{
    return stampede::cli::main(argc, argv);
}
