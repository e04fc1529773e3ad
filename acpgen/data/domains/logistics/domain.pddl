; logistics-strips: trucks carry packages between locations of one city, airplanes fly
; packages between the cities' airports. Action names are upper case, as in the records.
(define (domain logistics-strips)
    (:requirements :strips :typing)
    (:types location locatable city - object
            package movable - locatable
            airport - location
            airplane truck - movable)
    (:predicates (at ?obj - locatable ?loc - location)
                 (in ?obj1 - package ?obj2 - movable)
                 (in-city ?obj - location ?city - city))
    (:action LOAD-TRUCK
        :parameters (?p - package ?t - truck ?l - location)
        :precondition (and (at ?t ?l) (at ?p ?l))
        :effect (and (in ?p ?t) (not (at ?p ?l))))
    (:action LOAD-AIRPLANE
        :parameters (?p - package ?a - airplane ?l - location)
        :precondition (and (at ?p ?l) (at ?a ?l))
        :effect (and (in ?p ?a) (not (at ?p ?l))))
    (:action UNLOAD-TRUCK
        :parameters (?p - package ?t - truck ?l - location)
        :precondition (and (at ?t ?l) (in ?p ?t))
        :effect (and (at ?p ?l) (not (in ?p ?t))))
    (:action UNLOAD-AIRPLANE
        :parameters (?p - package ?a - airplane ?l - location)
        :precondition (and (in ?p ?a) (at ?a ?l))
        :effect (and (at ?p ?l) (not (in ?p ?a))))
    (:action DRIVE-TRUCK
        :parameters (?t - truck ?from - location ?to - location ?c - city)
        :precondition (and (at ?t ?from) (in-city ?from ?c) (in-city ?to ?c))
        :effect (and (at ?t ?to) (not (at ?t ?from))))
    (:action FLY-AIRPLANE
        :parameters (?a - airplane ?from - airport ?to - airport)
        :precondition (at ?a ?from)
        :effect (and (at ?a ?to) (not (at ?a ?from))))
)
