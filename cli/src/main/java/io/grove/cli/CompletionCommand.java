package io.grove.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code grove completion bash|zsh}: a completion script. */
@Command(name = "completion", mixinStandardHelpOptions = true,
        description = {"Prints a completion script for bash or zsh.",
            "",
            "Examples:",
            "  source <(grove completion bash)",
            "  grove completion zsh > \"${fpath[1]}/_grove\""})
final class CompletionCommand implements Callable<Integer> {

    @Parameters(paramLabel = "SHELL", description = "bash or zsh")
    String shell;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            spec.commandLine().getErr().println("grove: completion for bash or zsh, not '" + shell + "'");
            spec.commandLine().getErr().flush();
            return 2;
        }
        String script = AutoComplete.bash("grove", spec.root().commandLine());
        if (shell.equals("zsh")) {
            script = "autoload -U +X compinit && compinit\nautoload -U +X bashcompinit && bashcompinit\n" + script;
        }
        spec.commandLine().getOut().print(script);
        spec.commandLine().getOut().flush();
        return 0;
    }
}
