/** Reads operation specs (YAML or JSON) strictly, for the API and the command line. */
package io.grove.config.spec;
