#include <jack/jack.h>
#include <jack/midiport.h>

/* jack_client_open is variadic, which Swift cannot call: this wrapper passes the server name
   (or none, for the default server) and never starts a server of its own. */
static inline jack_client_t *tapkit_jack_client_open(const char *client_name, const char *server_name,
                                                     jack_status_t *status) {
    if (server_name)
        return jack_client_open(client_name, JackNoStartServer | JackServerName, status, server_name);
    return jack_client_open(client_name, JackNoStartServer, status);
}

/* Silences libjack's own messages (it prints to stderr on a failed connection); TapKit reports
   errors itself. */
static inline void tapkit_jack_ignore(const char *message) { (void)message; }
static inline void tapkit_jack_silence(void) {
    jack_set_error_function(tapkit_jack_ignore);
    jack_set_info_function(tapkit_jack_ignore);
}
