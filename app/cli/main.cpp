// fusiondiff-cli: the command-line front end. See usageText() and docs/cli.md.

#include "cliarguments.h"
#include "clicommands.h"
#include "fusionversion.h"
#include "load/inflater.h"
#include "util/inputerror.h"

#include <iostream>
#include <new>

int main(int argc, char** argv)
{
    using namespace fusiondiff;
    using namespace fusiondiff::cli;
    std::ios::sync_with_stdio(false);
    try {
        const Arguments arguments = parseArguments(std::vector<std::string>(argv + 1, argv + argc));
        switch (arguments.command) {
        case Arguments::Command::Help:
            std::cout << usageText();
            return 0;
        case Arguments::Command::Version:
            std::cout << "fusiondiff-cli " << FUSIONDIFF_VERSION << "\ngzip decoder: " << inflaterName() << "\n";
            return 0;
        case Arguments::Command::Parameters:
            std::cout << parametersText();
            return 0;
        case Arguments::Command::Compare:
            return runCompare(arguments.compare);
        case Arguments::Command::Classify:
            return runClassify(arguments.classify);
        }
    } catch (const UsageError& error) {
        std::cerr << "fusiondiff-cli: " << error.what() << " (see fusiondiff-cli --help)\n";
        return 2;
    } catch (const InputError& error) {
        std::cerr << "fusiondiff-cli: error: " << error.what() << "\n";
        return 2;
    } catch (const std::bad_alloc&) {
        std::cerr << "fusiondiff-cli: error: out of memory: the traces do not fit in this machine's memory\n";
        return 2;
    } catch (const std::exception& error) {
        std::cerr << "fusiondiff-cli: internal error: " << error.what() << "\n";
        return 1;
    }
    return 1;
}
