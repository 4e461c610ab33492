/** How commands print: tables that fit 100 columns, numbers with units, JSON and YAML, color on terminals. */
package io.grove.cli.out;
